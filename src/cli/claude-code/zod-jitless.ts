// Imported FIRST by full-dispatch.ts, for its side effect: zod's compiled fast path off, before any
// schema is built. One dispatch per process makes a few parses: compiling a parser per object schema
// (zod's `generateFastpass`, a `new Function` each) cost ~3 ms of the adapter's one-hook path and
// saved nothing. zod reads the setting when a schema is BUILT, not when it parses, and the config's
// schemas are built at import, so one-dispatch.ts's own `config({ jitless: true })` comes too late
// for them. scripts/bundle-cli.ts keeps this module out of chunks other commands load (`serve`
// parses for as long as it runs: the compiled fast path pays there).
import { config } from 'zod';

config({ jitless: true });
