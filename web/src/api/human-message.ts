// The API words request problems for programs ("body/new_password must NOT have fewer than 8
// characters", "body/password: Password is too common…"), and clients match those texts, so the
// server keeps them. People see them here instead, once, for every screen: the part of the
// request becomes a label ("New password must NOT…"), and a message that brings its own
// sentence after a colon is shown as that sentence.

const PARTS: Record<string, string> = { body: 'The request', querystring: 'The query', params: 'The address', headers: 'The headers' };
// Words spelled in capitals wherever they appear in a field name.
const ACRONYMS = new Set(['id', 'url', 'urls', 'api', 'mfa', 'ip', 'dns', 'smtp', 'http', 'https', 'sql', 'uid', 'jwt', 'otp', 'mx', 'dkim', 'cors']);

// A validator's message starts with the request part; further problems follow ", " (Fastify
// joins several with commas).
const STARTS_WITH_PART = /^(body|querystring|params|headers)[/ :]/;
const PROBLEM = /(^|, )(body|querystring|params|headers)((?:\/[^\s/,:]+)*)(: (?=[A-Z])| )/g;
const REQUIRED = /^must have required property '([^']+)'/;

function words(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w.toLowerCase()));
}

/** "allowed_origins/0" -> "Allowed origins #1"; "" -> the part's own name. */
function label(part: string, path: string[]): string {
  if (path.length === 0) return PARTS[part];
  const text = path.map((s) => (/^\d+$/.test(s) ? `#${Number(s) + 1}` : words(s).join(' '))).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A server message as a sentence for people; a message without validator paths is unchanged. */
export function humanMessage(message: string): string {
  if (!STARTS_WITH_PART.test(message)) return message;
  let out = '';
  let last = 0;
  for (const m of message.matchAll(PROBLEM)) {
    const [whole, separator, part, rawPath, after] = m;
    const path = rawPath.split('/').filter(Boolean);
    const rest = message.slice(m.index + whole.length);
    out += message.slice(last, m.index) + separator;
    last = m.index + whole.length;
    // "body/password: Password is too common": the contract's own sentence, shown as it is.
    if (after.startsWith(':')) continue;
    const required = REQUIRED.exec(rest);
    if (required) {
      out += `${label(part, [...path, required[1]])} is required`;
      last += required[0].length;
    } else out += `${label(part, path)} `;
  }
  out += message.slice(last);
  return out.charAt(0).toUpperCase() + out.slice(1);
}
