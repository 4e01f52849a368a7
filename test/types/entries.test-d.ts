// Type tests of the package's other entries: `hookwarden/packs` (src/packs-entry.ts), `hookwarden/audit`
// (src/audit/index.ts) and `hookwarden/bench` (src/measure/index.ts). Checked by
// `npx tsc -p tsconfig.test.json` (the "typecheck" step of .ci/run), like index.test-d.ts.
import type { KeyObject } from 'node:crypto';
import { expectTypeOf } from 'vitest';
import {
  type AuditKey,
  type AuditRecord,
  type ChainMode,
  type ChainReport,
  type VerifyOptions,
  verifyChain,
  writeAuditKeyFile,
} from '../../src/audit/index.js';
import type { ExecutorOptions, AuditRecord as MainAuditRecord } from '../../src/index.js';
import {
  BENCH_DEFAULTS,
  type BenchOptions,
  type BenchResult,
  type CompareOptions,
  type CompareResult,
  compareResults,
  Histogram,
  type HistogramOptions,
  type IsolationLevelInfo,
  isolationLevels,
  type Recording,
  readBenchResult,
  readRecording,
  renderHtmlReport,
  runBench,
} from '../../src/measure/index.js';
import {
  bundlePack,
  defaultPackCacheDir,
  type Fixture,
  type FixtureReport,
  type FixtureRunOptions,
  type FixturesRead,
  fixtureSchema,
  generatePackKeyPair,
  lockPack,
  type PackBundleResult,
  type PackKeyPair,
  type PackLockResult,
  type PackSignResult,
  type PackTestOptions,
  type PackTestReport,
  type PackVerification,
  type PackVerifyOptions,
  packKeyId,
  REMOTE_PACK_DEFAULTS,
  type RemotePackOptions,
  readFixturePaths,
  runFixtures,
  signPack,
  testPack,
  verifyPack,
  writePackKeyPair,
} from '../../src/packs-entry.js';

// hookwarden/packs
expectTypeOf(runFixtures).parameter(0).toEqualTypeOf<FixtureRunOptions>();
expectTypeOf(runFixtures).returns.toEqualTypeOf<Promise<FixtureReport>>();
expectTypeOf<FixtureRunOptions['executor']>().toEqualTypeOf<ExecutorOptions>();
expectTypeOf<FixtureRunOptions['fixtures']>().toEqualTypeOf<readonly Fixture[]>();
expectTypeOf<FixtureReport['passed']>().toEqualTypeOf<number>();
expectTypeOf(testPack).parameters.toEqualTypeOf<[dir: string, options?: PackTestOptions]>();
expectTypeOf(testPack).returns.toEqualTypeOf<Promise<PackTestReport>>();
expectTypeOf(lockPack).parameter(0).toEqualTypeOf<string>();
expectTypeOf(lockPack).returns.toEqualTypeOf<Promise<PackLockResult>>();
expectTypeOf(generatePackKeyPair).returns.toEqualTypeOf<PackKeyPair>();
expectTypeOf<PackKeyPair['keyId']>().toEqualTypeOf<string>();
expectTypeOf(packKeyId).parameters.toEqualTypeOf<[publicKey: KeyObject]>();
expectTypeOf(packKeyId).returns.toEqualTypeOf<string>();
expectTypeOf(writePackKeyPair).parameter(0).toEqualTypeOf<string>();
expectTypeOf(readFixturePaths).parameters.toEqualTypeOf<[paths: readonly string[]]>();
expectTypeOf(readFixturePaths).returns.toEqualTypeOf<Promise<FixturesRead>>();
expectTypeOf(bundlePack).parameters.toEqualTypeOf<[dir: string, out: string]>();
expectTypeOf(bundlePack).returns.toEqualTypeOf<Promise<PackBundleResult>>();
expectTypeOf(signPack).parameters.toEqualTypeOf<[dir: string, privateKey: string | Buffer | KeyObject]>();
expectTypeOf(signPack).returns.toEqualTypeOf<Promise<PackSignResult>>();
expectTypeOf(verifyPack).parameters.toEqualTypeOf<[dir: string, options?: PackVerifyOptions]>();
expectTypeOf(verifyPack).returns.toEqualTypeOf<Promise<PackVerification>>();
expectTypeOf<PackVerification['ok']>().toEqualTypeOf<boolean>();
expectTypeOf(defaultPackCacheDir).returns.toEqualTypeOf<string>();
expectTypeOf(REMOTE_PACK_DEFAULTS).toMatchTypeOf<object>();
expectTypeOf<RemotePackOptions>().toMatchTypeOf<ExecutorOptions['remotePacks']>();
expectTypeOf(fixtureSchema.parse).returns.toBeObject();
void verifyPack('pack', { digest: 'sha256:00', requireSignature: true });
// @ts-expect-error requireSignature is a boolean
void verifyPack('pack', { requireSignature: 'yes' });
// @ts-expect-error publicKeys is a list
void verifyPack('pack', { publicKeys: 'key.pem' });
// @ts-expect-error a fixture run needs the fixtures
void runFixtures({ executor: {} });
// @ts-expect-error testPack takes the pack's folder first
void testPack({ root: '.' });
// @ts-expect-error a pack test's limits are numbers
void testPack('pack', { limits: { maxHookCalls: 'many' } });

// hookwarden/audit
expectTypeOf(verifyChain).parameters.toEqualTypeOf<[text: string, options?: VerifyOptions]>();
expectTypeOf(verifyChain).returns.toEqualTypeOf<ChainReport>();
expectTypeOf<VerifyOptions['key']>().toEqualTypeOf<AuditKey | undefined>();
expectTypeOf<AuditKey>().toEqualTypeOf<string | Uint8Array | KeyObject>();
expectTypeOf<ChainMode>().toEqualTypeOf<'sha256' | 'hmac-sha256'>();
expectTypeOf(writeAuditKeyFile).parameters.toEqualTypeOf<[path: string]>();
expectTypeOf(writeAuditKeyFile).returns.toEqualTypeOf<void>();
expectTypeOf<AuditRecord>().toEqualTypeOf<MainAuditRecord>();
declare const report: ChainReport;
if (report.ok) expectTypeOf(report.head).toEqualTypeOf<string>();
// @ts-expect-error the chain's text, not a path object
verifyChain({ path: 'audit.jsonl' });
// @ts-expect-error a key is a string, bytes or a KeyObject
verifyChain('', { key: 42 });

// hookwarden/bench
expectTypeOf(runBench).parameters.toEqualTypeOf<[options: BenchOptions]>();
expectTypeOf(runBench).returns.toEqualTypeOf<Promise<BenchResult>>();
expectTypeOf<BenchOptions['iterations']>().toEqualTypeOf<number | undefined>();
expectTypeOf<BenchOptions['config']>().toEqualTypeOf<ExecutorOptions['config']>();
expectTypeOf(BENCH_DEFAULTS.iterations).toBeNumber();
expectTypeOf(compareResults).parameters.toEqualTypeOf<
  [base: BenchResult, next: BenchResult, options?: CompareOptions]
>();
expectTypeOf(compareResults).returns.toEqualTypeOf<CompareResult>();
expectTypeOf<CompareResult['mode']>().toEqualTypeOf<'separate' | 'interleaved'>();
expectTypeOf(readBenchResult).parameters.toEqualTypeOf<[path: string]>();
expectTypeOf(readBenchResult).returns.toEqualTypeOf<BenchResult>();
expectTypeOf(readRecording).returns.toEqualTypeOf<Recording>();
expectTypeOf(renderHtmlReport).parameters.toEqualTypeOf<[r: BenchResult]>();
expectTypeOf(renderHtmlReport).returns.toEqualTypeOf<string>();
expectTypeOf(isolationLevels).returns.toEqualTypeOf<IsolationLevelInfo[]>();
expectTypeOf<IsolationLevelInfo['available']>().toEqualTypeOf<boolean>();
expectTypeOf(Histogram).constructorParameters.toEqualTypeOf<[options?: HistogramOptions]>();
expectTypeOf<Histogram['record']>().toEqualTypeOf<(valueMs: number) => void>();
void runBench({ config: 'hooks.json', iterations: 100 });
// @ts-expect-error iterations is a number
void runBench({ iterations: '100' });
// @ts-expect-error not an option of a bench run
void runBench({ watch: true });
// @ts-expect-error compare needs two results
compareResults({} as BenchResult);
// @ts-expect-error a threshold is a number
compareResults({} as BenchResult, {} as BenchResult, { threshold: '5%' });
