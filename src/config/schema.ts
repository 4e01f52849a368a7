// zod schemas of hooks.json. Each piece is validated on its own by the loader (so one bad entry is
// reported with its JSON path and skipped while the rest loads); together they generate the JSON
// Schema editors use (see json-schema.ts).

import { z } from 'zod';
import { ON_ERROR_MODES, quotedList } from '../contract/decisions.js';
import { MUTATION_FIELDS } from '../contract/events.js';
import { SENDABLE_HEADER_VALUE } from '../contract/header-template.js';
import { CONFIGURED_HOOK_TYPES } from '../contract/types.js';
import { asyncFieldsShape } from './async-fields.js';
import { ISOLATION_LEVELS } from './defaults.js';
import { grantsSchema } from './grants.js';
import { limitsSchema } from './limits-schema.js';
import { packPinSchema } from './pack-pin-schema.js';
import { PACK_NAME_PATTERN } from './pin-loader.js';
import { tenantLimitsSchema } from './tenant-limits.js';
import { nonEmpty, posInt } from './zod-fields.js';

/** An HTTP header name (an RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;

/** Resource limits applied through prlimit to a command hook's process tree. */
const rlimitsSchema = z
  .object({
    cpuSeconds: posInt()
      .optional()
      .meta({ description: 'RLIMIT_CPU in seconds. Default: the deadline rounded up, +1.' }),
    openFiles: posInt().optional().meta({ description: 'RLIMIT_NOFILE. Default 1024.' }),
    fileSizeBytes: posInt().optional().meta({ description: 'RLIMIT_FSIZE in bytes. Default 64 MiB.' }),
    addressSpaceBytes: posInt()
      .optional()
      .meta({ description: 'RLIMIT_AS in bytes. Off by default: it breaks hooks written in Node or Java.' }),
  })
  .meta({ description: 'rlimits for command hooks (process tree).' });

/**
 * One hook. hookwarden's own fields plus Claude Code's (`timeout` in seconds, `args`, `if`, `async`,
 * `once`, `statusMessage`) so Claude Code configs load verbatim.
 */
export const hookSpecSchema = z
  .object({
    type: z
      .enum(CONFIGURED_HOOK_TYPES, { error: `expected ${quotedList(CONFIGURED_HOOK_TYPES)}` })
      .optional()
      .meta({
        description:
          'Hook kind. Inferred from command/argv (command), source/code (js; a source ending in .wasm: wasm) or url (http) when omitted. prompt and agent hooks need an evaluator registered by the platform.',
      }),
    name: z
      .string({ error: 'expected a string' })
      .regex(PACK_NAME_PATTERN, {
        error: 'expected 1-128 characters from A-Z a-z 0-9 . _ : @ / + - (starting with a letter or digit)',
      })
      .optional()
      .meta({
        description: 'Stable id: the key for overrides and records. Default: derived from the content.',
      }),
    command: nonEmpty('a non-empty shell command').optional().meta({
      description:
        'Shell command: run by /bin/sh -c in hookwarden files, by bash -c in Claude Code files (see shell).',
    }),
    shell: z.enum(['bash', 'powershell'], { error: 'expected "bash" or "powershell"' }).optional().meta({
      description:
        "Claude Code's shell for an inline command: bash (the default in Claude Code files) or powershell (pwsh, where installed).",
    }),
    args: z
      .array(z.string({ error: 'expected a string' }), { error: 'expected an array of strings' })
      .optional()
      .meta({
        description: "Claude Code's exec form: with args, `command` is the program and no shell is used.",
      }),
    argv: z
      .array(z.string({ error: 'expected a string' }), { error: 'expected an array of strings' })
      .min(1, { error: 'expected at least the program name' })
      .optional()
      .meta({ description: 'Program and arguments, run without a shell.' }),
    source: nonEmpty('a path').optional().meta({
      description:
        "JS hook file, or a wasm hook's module (a WASI preview 1 command, .wasm), relative to the config file or pack.",
    }),
    code: nonEmpty('JavaScript source').optional().meta({ description: 'Inline JS hook module source.' }),
    timeoutMs: posInt()
      .optional()
      .meta({ description: 'Deadline in ms. Default: JS and wasm 5000 (max 30000), command 60000.' }),
    timeout: z
      .number({ error: 'expected a positive number of seconds' })
      .positive({ error: 'expected a positive number of seconds' })
      .optional()
      .meta({ description: 'Claude Code / FreeCode deadline in SECONDS. Prefer timeoutMs.' }),
    budgetMs: posInt().optional().meta({
      description: 'Declared budget: a floor that widens the deadline to budgetMs + 5000 ms grace.',
    }),
    onError: z
      .enum(ON_ERROR_MODES, { error: `expected ${quotedList(ON_ERROR_MODES)}` })
      .optional()
      .meta({
        description: 'What a failure of this hook means: skip (fail-open, default) or deny (fail-closed).',
      }),
    onFailure: z.enum(['block', 'continue'], { error: 'expected "block" or "continue"' }).optional().meta({
      description:
        "Claude Code's spelling of onError: block = deny (no effect on Stop, SubagentStop, TaskCompleted, TeammateIdle), continue = skip.",
    }),
    memoryBytes: posInt().optional().meta({
      description:
        "JS heap cap, or a wasm hook's memory cap, in bytes. Default 32 MiB (wasm: at most limits.maxWasmMemoryBytes).",
    }),
    fuel: posInt().optional().meta({
      description:
        'wasm hooks: an instruction budget, the same on every machine; past it the hook ends timeout. Default: none (the deadline alone).',
    }),
    maxOutputBytes: posInt().optional().meta({
      description:
        'Output cap in bytes. Default JS 64 KiB (max 1 MiB), command and wasm 1 MiB per stream (wasm max 16 MiB).',
    }),
    env: z
      .record(z.string(), z.string({ error: 'expected a string value' }), {
        error: 'expected an object of strings',
      })
      .optional()
      .meta({ description: 'Explicit environment values for a command hook.' }),
    inheritEnv: z
      .array(z.string({ error: 'expected a variable name' }), {
        error: 'expected an array of variable names',
      })
      .optional()
      .meta({ description: 'Names passed from the host environment unless they look secret.' }),
    isolation: z
      .enum(ISOLATION_LEVELS, { error: `expected ${ISOLATION_LEVELS.map((l) => `"${l}"`).join(' or ')}` })
      .optional()
      .meta({
        description:
          'Command hook isolation: "process" (contained where the host allows it), "contained" (process mode, never uncontained) or "namespace" (bubblewrap). Default process.',
      }),
    writable: z.boolean({ error: 'expected true or false' }).optional(),
    runAs: z.enum(['nobody'], { error: 'expected "nobody"' }).optional(),
    rlimits: rlimitsSchema.optional(),
    url: nonEmpty('a URL like "https://hooks.example.com/pre-tool"').optional().meta({
      description:
        'http hooks: where the input is POSTed. Must match allowedHttpHookUrls (policy files or options).',
    }),
    headers: z
      .record(
        z.string().regex(HEADER_NAME, { error: 'expected an HTTP header name (letters, digits, - and _)' }),
        z.string({ error: 'expected a string value' }).regex(SENDABLE_HEADER_VALUE, {
          error: 'expected a value without line breaks, control characters or characters beyond Latin-1',
        }),
        { error: 'expected an object of header names to strings' },
      )
      .optional()
      .meta({
        description:
          'http hooks: request headers. $NAME (or the braced form) is filled from the environment for names in allowedEnvVars only; others are sent empty.',
      }),
    allowedEnvVars: z
      .array(z.string({ error: 'expected a variable name' }), {
        error: 'expected an array of variable names',
      })
      .optional()
      .meta({ description: 'http hooks: the variables headers may name.' }),
    prompt: nonEmpty('a non-empty prompt')
      .optional()
      .meta({ description: "prompt and agent hooks: the text handed to the platform's evaluator." }),
    model: nonEmpty('a model name').optional().meta({ description: 'prompt and agent hooks: passed on.' }),
    continueOnBlock: z
      .boolean({ error: 'expected true or false' })
      .optional()
      .meta({ description: 'prompt hooks (Claude Code): passed on to the evaluator.' }),
    if: z.string({ error: 'expected a string like "Bash(git *)"' }).optional(),
    once: z
      .boolean({ error: 'expected true or false' })
      .optional()
      .meta({ description: 'Run at most once per sessionId (per executor).' }),
    ...asyncFieldsShape,
    statusMessage: z.string({ error: 'expected a string' }).optional(),
    description: z.string({ error: 'expected a string' }).optional(),
  })
  .meta({
    description:
      'A hook: a command (command/argv), a JS module (source/code), a WebAssembly module (type wasm, source), an http request (url), or a prompt/agent hook (prompt).',
  });

export type RawHookSpec = z.infer<typeof hookSpecSchema>;

/** Claude Code's nested group: `{ matcher?, if?, hooks: [...] }`. */
const hookGroupSchema = z.object({
  matcher: z
    .string({ error: 'expected a string (tool name, regex or a|b)' })
    .optional()
    .meta({ description: 'Tool-scoped events only: "*" or empty = all, exact name, regex, or a|b.' }),
  if: z.string({ error: 'expected a string like "Bash(git *)"' }).optional(),
  hooks: z.array(hookSpecSchema, { error: 'expected an array of hooks' }),
});

/** An event's list: nested groups, or FreeCode's flat hooks (matcher on the hook itself). */
const eventEntriesSchema = z.array(
  z.union([hookGroupSchema, hookSpecSchema.extend({ matcher: z.string().optional() })]),
  { error: 'expected an array of hook groups' },
);

const hooksMapSchema = z.record(z.string(), eventEntriesSchema, {
  error: 'expected an object mapping event names to arrays',
});

const honourable = [...MUTATION_FIELDS, 'allow', 'ask'] as const;

/** A custom catalogue entry. */
export const eventDefinitionSchema = z.object({
  mode: z.enum(['serial', 'parallel'], { error: 'expected "serial" or "parallel"' }),
  canDeny: z.boolean({ error: 'expected true or false' }),
  honours: z
    .array(z.enum(honourable, { error: `expected one of ${honourable.join(', ')}` }), {
      error: 'expected an array',
    })
    .optional(),
  toolScoped: z.boolean({ error: 'expected true or false' }).optional(),
});

/** hookwarden's config file (top level). Claude Code's settings.json and FreeCode's form also load. */
export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    hooks: hooksMapSchema.optional(),
    policyHooks: hooksMapSchema.optional().meta({ description: 'Only honoured in --policy files.' }),
    events: z.record(z.string(), eventDefinitionSchema).optional(),
    limits: limitsSchema.optional(),
    allowedHttpHookUrls: z.array(z.string(), { error: 'expected an array of URL patterns' }).optional().meta({
      description:
        'Policy files only: URL patterns (`*` wildcards) http hooks may be sent to. Unset: no http hook runs.',
    }),
    httpHookAllowedEnvVars: z
      .array(z.string(), { error: 'expected an array of variable names' })
      .optional()
      .meta({
        description:
          "Policy files only: the variables any http hook's headers may name (an outer limit of each hook's allowedEnvVars).",
      }),
    sessionEnv: z
      .object({
        allow: z.array(z.string()).optional().meta({
          description:
            'Variables beyond the built-in inert list (LANG, TZ, NODE_ENV…) that any hook may set for the session. Never the loader variables (LD_*); PATH goes by pathDirs.',
        }),
        pathDirs: z.array(z.string()).optional().meta({
          description:
            'Directories (absolute, or under ~/) a PATH a hook sets for the session may add; a directory inside the project never.',
        }),
        narrowUserHooks: z.boolean().optional().meta({
          description:
            "The user's own unsandboxed hooks go by the allow-list too (by default they set what they like, as in Claude Code).",
        }),
      })
      .strict()
      .optional()
      .meta({
        description:
          'Policy files only: what hooks may set for the rest of the session beyond the session-env rule (docs/security.md).',
      }),
    grants: grantsSchema.optional(),
    packs: z.array(packPinSchema, { error: 'expected an array of pack pins' }).optional().meta({
      description: 'Policy packs, each verified against its pin (digest and/or signing keys) at load.',
    }),
    tenants: z
      .record(
        z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/),
        z.object({
          hooks: hooksMapSchema.optional(),
          packs: z.array(packPinSchema).optional(),
          limits: tenantLimitsSchema.optional(),
        }),
      )
      .optional()
      .meta({
        description:
          "Per-tenant hook sets: a dispatch for a tenant runs the policy hooks and that tenant's hooks only.",
      }),
  })
  .meta({ title: 'hookwarden hooks.json', description: 'Hooks by event; see README "Configuration".' });
