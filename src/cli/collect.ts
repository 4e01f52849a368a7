// commander's way to take a repeatable flag (every value, in order), and the repeatable flags several
// commands share.
import { Option } from 'commander';

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `--allow-http-url <pattern>` (dispatch, validate, test, bench, serve): joined with the policy files' list. */
export const allowHttpUrlOption = (): Option =>
  new Option(
    '--allow-http-url <pattern>',
    'a URL pattern http hooks may be sent to, as a policy file\'s allowedHttpHookUrls (e.g. "https://hooks.example.com/*"); repeatable',
  ).argParser(collect);
