// The /docs page's quick starts: each product in SDK (@hostbase/client, or the hostbase CLI for
// hosting) and curl form. `HB` is the platform's address, filled in with the page's origin.
// The SDK calls follow packages/client/README.md; the curl calls follow openapi.yaml.

export interface Sample {
  label: string;
  code: string;
}

const sdkClient = (hb: string) => `import { createClient } from '@hostbase/client';

// The publishable key (API Keys screen) is safe in a web page; access rules decide what it may do.
const hb = createClient('${hb}', 'hb_publishable_…');`;

export function authSamples(hb: string): Sample[] {
  return [
    {
      label: 'SDK',
      code: `${sdkClient(hb)}

await hb.auth.signUp({ email: 'ada@example.com', password: 'tangerine mosaic 42' });
await hb.auth.signIn({ email: 'ada@example.com', password: 'tangerine mosaic 42' });

// The session is kept and refreshed before it expires; follow it to render the page.
const stop = hb.auth.onAuthStateChange((event, session) => {
  console.log(event, session?.user.email ?? 'signed out');   // INITIAL_SESSION, SIGNED_IN, TOKEN_REFRESHED, SIGNED_OUT
});

const user = await hb.auth.getUser();
await hb.auth.signOut();`,
    },
    {
      label: 'curl',
      code: `HB=${hb}/api; KEY=hb_publishable_…   # the project's publishable key

curl -s $HB/auth/v1/signup -H "X-Hostbase-Key: $KEY" -H 'Content-Type: application/json' \\
  -d '{"email":"ada@example.com","password":"tangerine mosaic 42"}'
# {"access_token":"…","refresh_token":"…","token_type":"bearer","expires_in":3600,"user":{…}}

curl -s $HB/auth/v1/user -H "X-Hostbase-Key: $KEY" -H "X-Hostbase-User-Token: $ACCESS_TOKEN"

curl -s $HB/auth/v1/refresh -H "X-Hostbase-Key: $KEY" -H 'Content-Type: application/json' \\
  -d "{\\"refresh_token\\":\\"$REFRESH_TOKEN\\"}"          # a new pair; the old refresh token stops working

curl -s $HB/auth/v1/signout -H "X-Hostbase-Key: $KEY" -H 'Content-Type: application/json' \\
  -d "{\\"refresh_token\\":\\"$REFRESH_TOKEN\\"}"`,
    },
  ];
}

export function databaseSamples(hb: string): Sample[] {
  return [
    {
      label: 'SDK',
      code: `${sdkClient(hb)}

const todos = hb.db.from('todos');
await todos.insert({ title: 'Buy milk', done: false });

const { rows, total, next_page } = await hb.db.from('todos')
  .select('id, title, done')
  .eq('done', false)
  .order('id', { ascending: false })
  .page(1)                                    // 100 rows a page
  .count();

await hb.db.from('todos').eq('id', 1).update({ done: true });
await hb.db.from('todos').eq('id', 1).delete();

// Live changes, as the signed-in user may see them:
const sub = hb.db.from('todos').subscribe((change) => console.log(change.type, change.record));
sub.close();`,
    },
    {
      label: 'curl',
      code: `HB=${hb}/api; KEY=hb_publishable_…
U="X-Hostbase-User-Token: $ACCESS_TOKEN"        # a signed-in end user (see Authentication)

curl -s $HB/db/v1/todos/insert -H "X-Hostbase-Key: $KEY" -H "$U" -H 'Content-Type: application/json' \\
  -d '{"rows":[{"title":"Buy milk","done":false}]}'

curl -s $HB/db/v1/todos/select -H "X-Hostbase-Key: $KEY" -H "$U" -H 'Content-Type: application/json' \\
  -d '{"filters":[{"column":"done","op":"eq","value":false}],"order":[{"column":"id","ascending":false}],"page":1}'

curl -s $HB/db/v1/todos/update -H "X-Hostbase-Key: $KEY" -H "$U" -H 'Content-Type: application/json' \\
  -d '{"filters":[{"column":"id","op":"eq","value":1}],"values":{"done":true}}'

curl -sN $HB/db/v1/todos/changes -H "X-Hostbase-Key: $KEY" -H "$U"    # Server-Sent Events`,
    },
  ];
}

export function storageSamples(hb: string): Sample[] {
  return [
    {
      label: 'SDK',
      code: `${sdkClient(hb)}

const file = await hb.storage.upload(input.files[0], {
  folder: 'avatars',                                         // the folder's access rule applies
  onProgress: (loaded, total) => (bar.value = loaded / total),
});

const { files, next_page } = await hb.storage.list({ folder: 'avatars', page: 1 });
const blob = await hb.storage.download(file.object_id);

// Files are private: an <img> gets a signed URL (1 hour; checked at every download).
const { url } = await hb.storage.createSignedUrl(file.object_id);
img.src = url;
await hb.storage.remove(file.object_id);`,
    },
    {
      label: 'curl',
      code: `HB=${hb}/api; KEY=hb_publishable_…
U="X-Hostbase-User-Token: $ACCESS_TOKEN"

curl -s $HB/storage/v1/objects -H "X-Hostbase-Key: $KEY" -H "$U" -F file=@cat.png
# {"message":"saved","file":{"object_id":"…","object_type":"image/png",…}}

curl -s "$HB/storage/v1/objects?page=1" -H "X-Hostbase-Key: $KEY" -H "$U"
curl -s $HB/storage/v1/objects/$OBJECT_ID -H "X-Hostbase-Key: $KEY" -H "$U" -o cat.png
curl -s -X POST $HB/storage/v1/object/sign/$OBJECT_ID -H "X-Hostbase-Key: $KEY" -H "$U"
# {"message":"created","signed_url":{"url":"…/api/storage/v1/object/sign/…?token=…","expires_at":"…"}}
curl -s -X DELETE $HB/storage/v1/objects/$OBJECT_ID -H "X-Hostbase-Key: $KEY" -H "$U"`,
    },
  ];
}

export function hostingSamples(hb: string): Sample[] {
  return [
    {
      label: 'CLI',
      code: `npx hostbase login --url ${hb}               # e-mail, password, and the two-factor code when it is on
npx hostbase projects                            # ID  NAME  DOMAIN  CREATED
npx hostbase deploy ./dist --project todo-app --type Static
npx hostbase logs --project todo-app --follow    # the deploy log, then the runtime log`,
    },
    {
      label: 'curl',
      code: `HB=${hb}/api
TOKEN=$(curl -s $HB/verify_user -H 'Content-Type: application/json' \\
  -d '{"email":"you@example.com","password":"…"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).token')

(cd dist && zip -qr ../site.zip .)
curl -s $HB/project/$PROJECT_ID/upload-and-extract-zip/ -H "Authorization: Bearer $TOKEN" \\
  -F type=Static -F file=@site.zip
# {"message":"Project deployed!","deployment":{"status":"live",…}}

curl -s -X POST $HB/project/$PROJECT_ID/deployments -H "Authorization: Bearer $TOKEN"`,
    },
  ];
}

export function emailSamples(hb: string): Sample[] {
  const host = hostOf(hb);
  return [
    {
      label: 'SDK',
      code: `// Once your domain is verified, the sign-up and reset mails of hb.auth come from it
// (no-reply@example.com). Your app sends its own mail through a mailbox, over SMTP:
import nodemailer from 'nodemailer';

const mail = nodemailer.createTransport({
  host: 'mail.${host}', port: 465, secure: true,             // the platform's mail host
  auth: { user: 'hello@example.com', pass: process.env.MAILBOX_PASSWORD },
});
await mail.sendMail({ from: 'hello@example.com', to: 'ada@example.com', subject: 'Welcome', text: 'Hi Ada!' });`,
    },
    {
      label: 'curl',
      code: `HB=${hb}/api; A="Authorization: Bearer $TOKEN"; J='Content-Type: application/json'   # a developer token (see Hosting)

curl -s $HB/project/$PROJECT_ID/smtp/add_domain -H "$A" -H "$J" -d '{"domain":"example.com"}'
curl -s $HB/project/$PROJECT_ID/smtp/smtp_domain_details -H "$A" -H "$J" -d '{}'   # the DNS records to publish
curl -s $HB/project/$PROJECT_ID/smtp/smtp_domain_verify -H "$A" -H "$J" -d '{"domain":"example.com"}'
curl -s $HB/project/$PROJECT_ID/smtp/add_account -H "$A" -H "$J" \\
  -d '{"email":"hello","domain":"example.com","password":"Mailbox-Pass1!"}'`,
    },
  ];
}

/** The platform's domain as the page's host shows it (an IP address tells nothing: a placeholder). */
function hostOf(url: string): string {
  try {
    const host = new URL(url).hostname;
    return /^[\d.]+$|^\[/.test(host) ? 'your-platform-domain' : host;
  } catch {
    return 'your-platform-domain';
  }
}
