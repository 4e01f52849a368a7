// The naive pool every JS-hook benchmark compares with: what anyone gets by writing a few lines
// around quickjs-emscripten and Piscina. Each task gets a fresh runtime and context (fresh state per
// call), the same limits hookwarden sets, an eval of the hook module and a call of its default export.
import RELEASE_SYNC_IMPORT from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from 'quickjs-emscripten-core';
import { evalFresh } from '../../src/measure/fresh-eval.js';

const RELEASE_SYNC = ((RELEASE_SYNC_IMPORT as { default?: QuickJSSyncVariant }).default ??
  RELEASE_SYNC_IMPORT) as QuickJSSyncVariant;
const QJS = await newQuickJSWASMModuleFromVariant(RELEASE_SYNC);

export default function run(task: { code: string; inputJson: string }): unknown {
  return evalFresh(QJS, task.code, task.inputJson);
}
