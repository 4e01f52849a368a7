// hookwarden's public API: the only importable entry (package.json `exports`).

export { type AuditKey, writeAuditKeyFile } from './audit/audit-key.js';
export type { AuditOption, AuditRecord } from './audit/audit-log.js';
export type { ChainMode } from './audit/hash-chain.js';
export type { HookEventMap, HookEventName, HookStartedEvent } from './audit/hook-events.js';
export { type ChainReport, type VerifyOptions, verifyChain } from './audit/verify-chain.js';
export type { BaselineName } from './bench/baselines.js';
export { BENCH_DEFAULTS, type BenchOptions } from './bench/bench-options.js';
export type {
  BenchResult,
  BlockSummary,
  BuildInfo,
  ConfiguredHook,
  DispatchStageSplit,
  HookRatios,
  HookSummary,
  InputInfo,
  LatencySummary,
  OverallRatios,
  StageSplit,
  TenantSummary,
} from './bench/bench-result.js';
export {
  type CompareOptions,
  type CompareResult,
  compareResults,
  type SeriesChange,
} from './bench/compare.js';
export { Histogram, type HistogramBucket, type HistogramOptions } from './bench/histogram.js';
export { readBenchResult } from './bench/load-result.js';
export type { MachineInfo } from './bench/machine.js';
export { renderHtmlReport } from './bench/report-html.js';
export { runBench } from './bench/run-bench.js';
export { DEFAULTS, type Limits } from './config/defaults.js';
export type { Diagnostic } from './config/diagnostics.js';
export { hooksJsonSchema } from './config/json-schema.js';
export { configFileSchema, hookSpecSchema } from './config/schema.js';
export { type ValidationReport, validateConfig } from './config/validate.js';
export { ERROR_CODES, type ErrorCode, type HookError } from './contract/error-codes.js';
export { DEFAULT_EVENTS, EVENT_ALIASES, type EventDefinition } from './contract/events.js';
export { type FoldHook, foldAnswers, type HookAnswer } from './contract/fold.js';
export { hookInputSchema } from './contract/hook-input.js';
export { hookOutputSchema } from './contract/hook-output.js';
export { HookwardenError, type HookwardenErrorCode } from './contract/hookwarden-error.js';
export type { DispatchResult, HookRecord } from './contract/result.js';
export type {
  Decision,
  DispatchInput,
  HookInput,
  HookOutput,
  HookType,
  Outcome,
  Scope,
  Verdict,
} from './contract/types.js';
export type { DispatchOptions } from './dispatch/dispatcher.js';
export type { HookTiming, HookTimingListener } from './dispatch/hook-timing.js';
export { createExecutor, type Executor, type TrustedHookSpec } from './executor/executor.js';
export type { ConfigSource, ExecutorOptions } from './executor/options.js';
export type { ReloadResult } from './executor/reload.js';
export type { TenantSpec } from './executor/set-tenant.js';
export { generatePackKeyPair, type PackKeyPair, packKeyId, writePackKeyPair } from './packs/keys.js';
export { lockPack, type PackLockResult } from './packs/lock-pack.js';
export type { PackStatus } from './packs/pins.js';
export { type PackSignResult, signPack } from './packs/sign-pack.js';
export {
  type PackSignatureCheck,
  type PackVerification,
  type PackVerifyOptions,
  verifyPack,
} from './packs/verify.js';
export type { TenantLimits } from './pool/fair-scheduler.js';
export type { TrustedContext, TrustedHandler } from './registry/registry.js';
