// Type tests of the package's main entry (`hookwarden`, src/index.ts): what a caller's compiler sees.
// Checked by `npx tsc -p tsconfig.test.json` (the "typecheck" step of .ci/run): a wrong expectation,
// or a `@ts-expect-error` that no longer finds an error, fails the step.
import { expectTypeOf } from 'vitest';
import {
  type AuditRecord,
  type CloseOptions,
  type ConfigSource,
  configFileSchema,
  createExecutor,
  DEFAULT_EVENTS,
  DEFAULTS,
  type Decision,
  type Diagnostic,
  type DispatchInput,
  type DispatchOptions,
  type DispatchResult,
  ERROR_CODES,
  type ErrorCode,
  EVENT_ALIASES,
  type EventDefinition,
  type Executor,
  type ExecutorOptions,
  type HookError,
  type HookEventMap,
  type HookEventName,
  type HookInput,
  type HookOutput,
  type HookRecord,
  type HookType,
  type HookwardenError,
  type HookwardenErrorCode,
  hookInputSchema,
  hookOutputSchema,
  hookSpecSchema,
  hooksJsonSchema,
  isHookwardenError,
  type Limits,
  type Outcome,
  type ReloadResult,
  type Scope,
  type TenantLimits,
  type TenantSpec,
  type TrustedContext,
  type TrustedHandler,
  type TrustedHookSpec,
  type ValidationReport,
  type Verdict,
  validateConfig,
} from '../../src/index.js';

// createExecutor: options in, an Executor out; every option is optional.
expectTypeOf(createExecutor).parameter(0).toEqualTypeOf<ExecutorOptions | undefined>();
expectTypeOf(createExecutor).returns.toEqualTypeOf<Promise<Executor>>();
expectTypeOf<ExecutorOptions>().toMatchTypeOf<{ config?: ConfigSource | readonly ConfigSource[] }>();
expectTypeOf<Record<never, never>>().toMatchTypeOf<ExecutorOptions>();
expectTypeOf<ConfigSource>().toMatchTypeOf<string | object>();
void createExecutor({ config: 'hooks.json', policy: [{ path: 'p.json' }], limits: { maxHookCalls: 3 } });
void createExecutor({ config: { path: '.claude/settings.json', scope: 'user', optional: true } });
// @ts-expect-error an option that does not exist
void createExecutor({ configs: 'hooks.json' });
// @ts-expect-error limits are numbers
void createExecutor({ limits: { maxHookCalls: '3' } });
// @ts-expect-error watch is a boolean
void createExecutor({ watch: 'yes' });

// The executor's methods.
declare const executor: Executor;
expectTypeOf(executor.dispatch).parameters.toEqualTypeOf<
  [event: string, input?: DispatchInput, options?: DispatchOptions]
>();
expectTypeOf(executor.dispatch).returns.toEqualTypeOf<Promise<DispatchResult>>();
expectTypeOf(executor.register).parameter(0).toEqualTypeOf<TrustedHookSpec>();
expectTypeOf(executor.register).returns.toEqualTypeOf<() => void>();
expectTypeOf(executor.setTenant).parameters.toEqualTypeOf<[id: string, spec?: TenantSpec]>();
expectTypeOf(executor.setTenant).returns.toEqualTypeOf<Promise<void>>();
expectTypeOf(executor.removeTenant).returns.toEqualTypeOf<boolean>();
expectTypeOf(executor.reload).returns.toEqualTypeOf<Promise<ReloadResult>>();
expectTypeOf(executor.close).parameter(0).toEqualTypeOf<CloseOptions | undefined>();
expectTypeOf(executor.close).returns.toEqualTypeOf<Promise<void>>();
expectTypeOf(executor.diagnostics).toEqualTypeOf<readonly Diagnostic[]>();
expectTypeOf(executor.tenants).toEqualTypeOf<readonly string[]>();
void executor.dispatch('BeforeTool', { toolName: 'Bash', toolInput: { command: 'ls' } }, { tenant: 'acme' });
// @ts-expect-error the event is a string
void executor.dispatch(1);
// @ts-expect-error the tenant is a string
void executor.dispatch('BeforeTool', {}, { tenant: 1 });
// @ts-expect-error the abort signal is an AbortSignal
void executor.dispatch('BeforeTool', {}, { signal: true });
// @ts-expect-error close's drain is in ms, a number
void executor.close({ drainMs: '5s' });
// @ts-expect-error removeTenant takes the tenant's id
executor.removeTenant();

// Events: each name has its payload; an unknown name is refused.
expectTypeOf<HookEventName>().toEqualTypeOf<keyof HookEventMap>();
expectTypeOf<HookEventMap['hook.completed']>().toEqualTypeOf<AuditRecord>();
executor.on('hook.completed', (record) => expectTypeOf(record).toEqualTypeOf<AuditRecord>());
// @ts-expect-error no such event
executor.on('hook.finished', () => {});

// Trusted callbacks.
expectTypeOf<TrustedHandler>().parameters.toEqualTypeOf<[input: Readonly<HookInput>, ctx: TrustedContext]>();
expectTypeOf<TrustedHandler>().returns.toEqualTypeOf<
  HookOutput | undefined | Promise<HookOutput | undefined>
>();
expectTypeOf<TrustedContext['signal']>().toEqualTypeOf<AbortSignal>();
executor.register({ event: 'BeforeTool', name: 'n', handler: () => ({ decision: 'deny', reason: 'no' }) });
executor.register({ event: 'BeforeTool', name: 'n', handler: async () => undefined });
// @ts-expect-error a trusted hook needs a name
executor.register({ event: 'BeforeTool', handler: () => undefined });
// @ts-expect-error a decision is one of the vocabulary
executor.register({ event: 'BeforeTool', name: 'n', handler: () => ({ decision: 'block' }) });
// @ts-expect-error onError is skip or deny
executor.register({ event: 'BeforeTool', name: 'n', onError: 'ignore', handler: () => undefined });

// The result and its vocabularies.
expectTypeOf<Decision>().toEqualTypeOf<'allow' | 'deny' | 'ask' | 'defer'>();
expectTypeOf<Verdict>().toEqualTypeOf<Decision | 'passthrough'>();
expectTypeOf<Outcome>().toEqualTypeOf<
  Decision | 'proceed' | 'error' | 'timeout' | 'limit' | 'not-run' | 'queued'
>();
expectTypeOf<Scope>().toEqualTypeOf<'trusted' | 'policy' | 'project' | 'user'>();
expectTypeOf<HookType>().toEqualTypeOf<'command' | 'js' | 'wasm' | 'http' | 'prompt' | 'agent' | 'trusted'>();
expectTypeOf<DispatchResult['decision']>().toEqualTypeOf<Verdict>();
expectTypeOf<DispatchResult['hooks']>().toEqualTypeOf<HookRecord[]>();
expectTypeOf<DispatchResult['reason']>().toEqualTypeOf<string | undefined>();
expectTypeOf<HookRecord['outcome']>().toEqualTypeOf<Outcome>();
expectTypeOf<HookRecord['scope']>().toEqualTypeOf<Scope>();
expectTypeOf<HookOutput['decision']>().toEqualTypeOf<Decision | undefined>();
// @ts-expect-error a verdict is never "block"
const badVerdict: Verdict = 'block';
void badVerdict;

// Errors.
expectTypeOf<HookError['code']>().toEqualTypeOf<ErrorCode>();
expectTypeOf(ERROR_CODES).toMatchTypeOf<readonly ErrorCode[]>();
expectTypeOf(isHookwardenError).guards.toEqualTypeOf<HookwardenError>();
expectTypeOf<HookwardenError>().toMatchTypeOf<Error>();
expectTypeOf<HookwardenError['code']>().toEqualTypeOf<HookwardenErrorCode>();

// Validation without running a hook.
expectTypeOf(validateConfig).returns.toEqualTypeOf<Promise<ValidationReport>>();
expectTypeOf<ValidationReport['diagnostics']>().toEqualTypeOf<readonly Diagnostic[]>();
expectTypeOf<ValidationReport['hookCount']>().toEqualTypeOf<number>();
void validateConfig({ config: 'hooks.json' });
// @ts-expect-error validate runs no hook: no executor-only options (queue, evaluators…)
void validateConfig({ config: 'hooks.json', queue: { redis: 'redis://x' } });

// Tenants, limits, constants and schemas.
expectTypeOf<TenantSpec['limits']>().toEqualTypeOf<TenantLimits | undefined>();
expectTypeOf(DEFAULTS.limits).toMatchTypeOf<Limits>();
expectTypeOf(DEFAULT_EVENTS).toMatchTypeOf<readonly EventDefinition[]>();
expectTypeOf(EVENT_ALIASES).toEqualTypeOf<
  Readonly<Record<string, { event: string; input?: { ok: boolean } }>>
>();
expectTypeOf(hooksJsonSchema).returns.toEqualTypeOf<Record<string, unknown>>();
expectTypeOf(configFileSchema.parse).returns.toBeObject();
expectTypeOf(hookSpecSchema.safeParse).toBeFunction();
expectTypeOf(hookInputSchema.parse).returns.toMatchTypeOf<object>();
expectTypeOf(hookOutputSchema.parse).returns.toMatchTypeOf<object>();
