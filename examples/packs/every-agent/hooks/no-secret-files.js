// BeforeTool guard for file tools, whatever agent sent them: Read, Write and Edit in hookwarden's one
// vocabulary (Gemini CLI's read_file/write_file/replace, Cursor's Read and beforeReadFile, Copilot
// CLI's view/create/edit with `path` read as `file_path`). Files that hold secrets are neither read
// nor written by an agent: .env files, private keys, cloud and registry credentials.
const SECRET = [
  /(^|\/)\.env(\.[^/]+)?$/,
  /(^|\/)id_(rsa|dsa|ecdsa|ed25519)$/,
  /\.(pem|key|p12|pfx)$/,
  /(^|\/)\.aws\/credentials$/,
  /(^|\/)\.(netrc|npmrc|pypirc)$/,
];
const TEMPLATE = /(^|\/)\.env\.(example|sample|template)$/;

export default function (input, ctx) {
  const path = String(input.toolInput?.file_path ?? '');
  if (path === '' || TEMPLATE.test(path)) return;
  if (SECRET.some((re) => re.test(path)))
    return { decision: 'deny', reason: `${ctx.hookId}: ${path} holds secrets; an agent does not touch it` };
}
