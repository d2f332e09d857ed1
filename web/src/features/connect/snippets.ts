// The first-app snippets of the Connect screen, built from the project's API URL and publishable
// key. Each one is a whole program that works when pasted (the first-app journey runs them in
// Chromium): it signs an end user up, inserts a row, uploads a file and reads it back. The example
// table and folder are named here once so the screen's set-up note and the code agree.

export const EXAMPLE_TABLE = 'notes';
export const EXAMPLE_COLUMN = 'body';
export const EXAMPLE_FOLDER = 'uploads';
// Long and uncommon, so the project's password rules accept it.
const EXAMPLE_PASSWORD = 'tangerine mosaic 42';

export interface ConnectValues {
  /** The platform's origin, e.g. https://hostbase.example (the API is under /api). */
  url: string;
  publishableKey: string;
}

/** The app API's base: what curl and fetch call (the SDK adds /api itself). */
export function apiUrl(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/api`;
}

export function sdkSnippet({ url, publishableKey }: ConnectValues): string {
  return `import { createClient } from '@hostbase/client';

const hb = createClient(${JSON.stringify(url)}, ${JSON.stringify(publishableKey)});

// 1. Sign an end user up: the session is kept and sent with every call below.
await hb.auth.signUp({ email: \`user\${Date.now()}@example.com\`, password: ${JSON.stringify(EXAMPLE_PASSWORD)} });

// 2. Insert a row into the "${EXAMPLE_TABLE}" table.
const { rows } = await hb.db.from(${JSON.stringify(EXAMPLE_TABLE)}).insert({ ${EXAMPLE_COLUMN}: 'Hello from my app' });

// 3. Upload a file into the "${EXAMPLE_FOLDER}" folder and read it back.
const file = await hb.storage.upload(new Blob(['Hello, file'], { type: 'text/plain' }), { name: 'hello.txt', folder: ${JSON.stringify(EXAMPLE_FOLDER)} });
const text = await (await hb.storage.download(file.object_id)).text();

console.log(rows[0], file.object_id, text);
`;
}

export function fetchSnippet({ url, publishableKey }: ConnectValues): string {
  return `const API = ${JSON.stringify(apiUrl(url))};
const KEY = ${JSON.stringify(publishableKey)};

async function call(path, init = {}) {
  const res = await fetch(API + path, init);
  if (!res.ok) throw new Error(path + ': ' + res.status + ' ' + (await res.text()));
  return res;
}

// 1. Sign an end user up; their access token goes in X-Hostbase-User-Token.
const session = await (await call('/auth/v1/signup', {
  method: 'POST',
  headers: { 'X-Hostbase-Key': KEY, 'content-type': 'application/json' },
  body: JSON.stringify({ email: \`user\${Date.now()}@example.com\`, password: ${JSON.stringify(EXAMPLE_PASSWORD)} }),
})).json();
const headers = { 'X-Hostbase-Key': KEY, 'X-Hostbase-User-Token': session.access_token };

// 2. Insert a row into the "${EXAMPLE_TABLE}" table.
const { rows } = await (await call('/db/v1/${EXAMPLE_TABLE}/insert', {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({ rows: [{ ${EXAMPLE_COLUMN}: 'Hello from my app' }] }),
})).json();

// 3. Upload a file into the "${EXAMPLE_FOLDER}" folder (the folder field before the file) and read it back.
const form = new FormData();
form.append('folder', ${JSON.stringify(EXAMPLE_FOLDER)});
form.append('file', new Blob(['Hello, file'], { type: 'text/plain' }), 'hello.txt');
const { file } = await (await call('/storage/v1/objects', { method: 'POST', headers, body: form })).json();
const text = await (await call('/storage/v1/objects/' + file.object_id, { headers })).text();

console.log(rows[0], file.object_id, text);
`;
}

export function curlSnippet({ url, publishableKey }: ConnectValues): string {
  return `A=${apiUrl(url)}
K=${publishableKey}

# 1. Sign an end user up and keep their access token.
U=$(curl -s $A/auth/v1/signup -H "X-Hostbase-Key: $K" -H 'content-type: application/json' \\
  -d '{"email":"user'$RANDOM'@example.com","password":"${EXAMPLE_PASSWORD}"}' \\
  | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')

# 2. Insert a row into the "${EXAMPLE_TABLE}" table.
curl -s $A/db/v1/${EXAMPLE_TABLE}/insert -H "X-Hostbase-Key: $K" -H "X-Hostbase-User-Token: $U" \\
  -H 'content-type: application/json' -d '{"rows":[{"${EXAMPLE_COLUMN}":"Hello from my app"}]}'

# 3. Upload a file into the "${EXAMPLE_FOLDER}" folder, then read it back by its object_id.
echo 'Hello, file' > hello.txt
curl -s $A/storage/v1/objects -H "X-Hostbase-Key: $K" -H "X-Hostbase-User-Token: $U" \\
  -F folder=${EXAMPLE_FOLDER} -F file=@hello.txt
curl -s $A/storage/v1/objects/OBJECT_ID -H "X-Hostbase-Key: $K" -H "X-Hostbase-User-Token: $U"
`;
}
