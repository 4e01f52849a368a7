// Whether the hook command can be hookwarden-client: the client was built, and the daemon it talks
// to can run here (it refuses to start when it cannot check who connects). `claude-code install`
// writes the client where this says so, the Node adapter otherwise; `doctor` reports it.
import { clientBinary } from './native-files.js';
import { peerCredProblem } from './peer-cred.js';

export function nativeClientCommand(): { path: string } | { why: string } {
  const client = clientBinary();
  if ('why' in client) return client;
  const peers = peerCredProblem();
  return peers === undefined ? client : { why: `the daemon could not check its peers: ${peers}` };
}
