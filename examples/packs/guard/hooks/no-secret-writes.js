// BeforeTool guard for file writes, in a QuickJS isolate: files that hold secrets are not written by
// an agent (.env files, private keys, cloud and package-registry credentials). Templates of them
// (.env.example, .env.sample, .env.template) may be written, with a reminder.
const SECRET = [
  /(^|\/)\.env(\.[^/]+)?$/,
  /(^|\/)id_(rsa|dsa|ecdsa|ed25519)$/,
  /\.(pem|key|p12|pfx)$/,
  /(^|\/)\.aws\/credentials$/,
  /(^|\/)\.(netrc|npmrc|pypirc)$/,
];
const TEMPLATE = /(^|\/)\.env\.(example|sample|template)$/;

export default function (input, ctx) {
  const path = String(input.toolInput?.file_path ?? input.toolInput?.path ?? '');
  if (path === '') return;
  if (TEMPLATE.test(path)) {
    return { additionalContext: `${path} is a template: placeholders only, never real secrets` };
  }
  if (SECRET.some((re) => re.test(path))) {
    return { decision: 'deny', reason: `${ctx.hookId}: ${path} holds secrets; an agent does not write it` };
  }
}
