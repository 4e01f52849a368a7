// Part of `npm test`: fails when the suite's global teardown found hook processes or spawn servers
// still running.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = fileURLToPath(new URL('../../.vitest-leaks.json', import.meta.url));
if (existsSync(file)) {
  process.stderr.write(
    `hook processes or spawn servers were left running after the test suite:\n${readFileSync(file, 'utf8')}`,
  );
  process.exit(1);
}
