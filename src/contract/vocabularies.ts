// The seeds' answer vocabularies, mapped onto Claude Code's and hookwarden's field names before the
// answer is validated (docs/claude-code.md#dialects). Each is recognised by its shape, whatever the file's
// dialect: a field no hookwarden answer has (`block`, `action`, `modifiedInput`) never passes silently.
//
//   FreeCode stdout      {block, reason?, modifiedInput?, context?}
//   FreeCode callback    {action: "continue"|"block"|"modify", reason?, modifiedInput?}
//   Mayura               {decision: "continue"|"block", actions?}
//
//   block: true, action: "block", decision: "block" → Claude Code's decision "block" (a deny; on
//                                                     Stop-like events "keep working")
//   action/decision "continue", block: false       → nothing (proceed)
//   modifiedInput                                   → mutatedToolInput, shallow-merged into the tool
//                                                     input the hook was given (FreeCode's patch)
//   context                                         → additionalContext
//   actions (Mayura's tool calls)                   → ignored (listed): hookwarden runs no actions
// Dependency-free.

import { isObject } from './messages.js';

type Obj = Record<string, unknown>;

export type VocabularyResult = { ok: true; mapped: Obj; ignored: string[] } | { ok: false; message: string };

const SEED_KEYS = ['block', 'action', 'modifiedInput', 'context', 'actions'];

/** Whether an answer uses a seed's vocabulary (FreeCode's or Mayura's). */
export function isSeedOutput(raw: Obj): boolean {
  return raw.decision === 'continue' || SEED_KEYS.some((k) => Object.hasOwn(raw, k));
}

/**
 * Maps FreeCode's and Mayura's fields to Claude Code's (`decision: "block"`) and hookwarden's
 * (`mutatedToolInput`, `additionalContext`); other fields are kept for the next mapping step.
 * `toolInput` is the input the hook was given: FreeCode's `modifiedInput` is a patch over it.
 */
export function mapSeedOutput(raw: Obj, toolInput: unknown): VocabularyResult {
  const mapped: Obj = Object.create(null);
  const ignored: string[] = [];
  let block = false;
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    switch (key) {
      case 'block':
        if (typeof value !== 'boolean') return { ok: false, message: `block: expected boolean` };
        block ||= value;
        break;
      case 'action':
        if (value !== 'continue' && value !== 'block' && value !== 'modify')
          return { ok: false, message: 'action: expected one of "continue"|"block"|"modify"' };
        block ||= value === 'block';
        break;
      case 'decision':
        if (value === 'block') block = true;
        else if (value !== 'continue') mapped.decision = value;
        break;
      case 'modifiedInput':
        if (!isObject(value)) return { ok: false, message: 'modifiedInput: expected an object' };
        mapped.mutatedToolInput = isObject(toolInput)
          ? Object.assign(Object.create(null), toolInput, value)
          : value;
        break;
      case 'context':
        if (typeof value !== 'string') return { ok: false, message: 'context: expected string' };
        mapped.additionalContext =
          typeof raw.additionalContext === 'string' ? `${raw.additionalContext}\n${value}` : value;
        break;
      case 'additionalContext':
        if (!Object.hasOwn(raw, 'context')) mapped.additionalContext = value;
        break;
      case 'actions':
        ignored.push(key);
        break;
      default:
        mapped[key] = value;
    }
  }
  if (block) mapped.decision = 'block';
  return { ok: true, mapped, ignored };
}
