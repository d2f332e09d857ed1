// The per-project sender of end-user mails (smtp/project-mailer.ts): the chooser alone, then
// through the real app (either database) with a minimal SMTP sink standing in for the mail host's
// platform port (the real one is in test/mail/mail-servers.test.ts).
import net from 'node:net';
import type { Mailer } from '../../server/src/platform/mailer';
import { createProjectMailers, type MailTransport } from '../../server/src/modules/mail/project-mailer';
import { buildTestApp, registerDeveloper, type TestApp } from '../helpers/app';
import { app as endUserApi, createProject } from '../end-users/setup';

jest.setTimeout(60_000);

const project = { id: 'p1', name: 'Shop' };
const message = { to: 'ann@customer.test', subject: 'Reset', text: 'link' };

function platformMailer(): Mailer & { sent: unknown[] } {
  const sent: unknown[] = [];
  return { kind: 'outbox', sent, send: async (m) => void sent.push(m) };
}

describe('createProjectMailers', () => {
  it('without a project path every project sends from the platform (the domain is not even looked up)', async () => {
    const platform = platformMailer();
    const lookup = jest.fn(async () => 'shop.example');
    expect(await createProjectMailers({ platform, verifiedDomainOf: lookup }).forProject(project)).toBe(platform);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('a project without a verified domain sends from the platform', async () => {
    const platform = platformMailer();
    const transport: MailTransport = { sendMail: jest.fn() };
    const mailers = createProjectMailers({ platform, projectTransport: transport, verifiedDomainOf: async () => undefined });
    await (await mailers.forProject(project)).send(message);
    expect(platform.sent).toEqual([message]);
    expect(transport.sendMail).not.toHaveBeenCalled();
  });

  it('a verified domain sends from no-reply@{domain} with the project name, over the project path', async () => {
    const platform = platformMailer();
    const transport = { sendMail: jest.fn(async () => ({})) };
    const mailers = createProjectMailers({ platform, projectTransport: transport, verifiedDomainOf: async (id) => (id === 'p1' ? 'shop.example' : undefined) });
    await (await mailers.forProject(project)).send(message);
    expect(transport.sendMail).toHaveBeenCalledWith({ ...message, from: { name: 'Shop', address: 'no-reply@shop.example' } });
    expect(platform.sent).toEqual([]);
  });

  it('a failing project path is logged and thrown, never sent from the platform instead', async () => {
    const platform = platformMailer();
    const error = jest.fn();
    const mailers = createProjectMailers({
      platform,
      projectTransport: { sendMail: async () => Promise.reject(new Error('connect ECONNREFUSED')) },
      verifiedDomainOf: async () => 'shop.example',
      log: { error },
    });
    await expect((await mailers.forProject(project)).send(message)).rejects.toThrow('ECONNREFUSED');
    expect(platform.sent).toEqual([]);
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ projectId: 'p1', from: 'no-reply@shop.example' }), expect.any(String));
  });
});

/** Just enough SMTP to take messages: what nodemailer sends (no TLS, no AUTH). */
async function startSink(): Promise<{ port: number; messages: string[]; close(): Promise<void> }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl).toUpperCase();
        buffer = buffer.slice(nl + 2);
        if (line.startsWith('EHLO')) socket.write('250 sink\r\n');
        else if (line === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (line === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, messages, close: () => new Promise((r) => server.close(() => r())) };
}

describe('end-user mails through the app', () => {
  let sink: Awaited<ReturnType<typeof startSink>>;
  let t: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    sink = await startSink();
    t = await buildTestApp({ MAIL_PROJECT_SMTP_URL: `smtp://127.0.0.1:${sink.port}` });
    plain = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await plain?.close();
    await sink?.close();
  });

  /** A project with an end user, and its mail domain added (verified or not, set directly). */
  async function projectWithDomain(app: TestApp, domain: string, verified: boolean) {
    const dev = await registerDeveloper(app);
    const p = await createProject(app, dev);
    expect((await app.post(`/project/${p.id}/smtp/add_domain`, { domain }, dev.token)).statusCode).toBe(200);
    if (verified) await app.database.query('UPDATE smtp_domains SET verified = true, verified_at = now() WHERE domain = $1', [domain]);
    const email = `ann@${domain}`;
    expect((await endUserApi(app, p.authKey, 'POST', '/signup', { email, password: 'first password 1' })).statusCode).toBe(200);
    return { p, email };
  }

  it('a verified domain: the reset mail goes over MAIL_PROJECT_SMTP_URL from no-reply@{domain}, not to the outbox', async () => {
    const { p, email } = await projectWithDomain(t, 'verified-shop.example', true);
    expect((await endUserApi(t, p.authKey, 'POST', '/recover', { email })).statusCode).toBe(200);
    const mail = sink.messages.find((m) => m.includes(`To: ${email}`));
    expect(mail).toMatch(/^From: .*<no-reply@verified-shop\.example>$/m);
    expect(mail).toMatch(/^Subject: Reset your password for /m);
    expect(t.outbox().filter((m) => m.to.includes(email))).toEqual([]);
  });

  it('a verified domain: the verification mail too', async () => {
    const { p, email } = await projectWithDomain(t, 'verify-shop.example', true);
    const session = (await endUserApi(t, p.authKey, 'POST', '/signin', { email, password: 'first password 1' })).json();
    expect((await endUserApi(t, p.authKey, 'POST', '/verify/send', {}, session.access_token)).json()).toEqual({ message: 'Verification email sent' });
    const mail = sink.messages.find((m) => m.includes(`To: ${email}`) && m.includes('Subject: Verify your email for'));
    expect(mail).toMatch(/^From: .*<no-reply@verify-shop\.example>$/m);
  });

  it('a domain added but not verified: the reset mail comes from the platform (outbox)', async () => {
    const { p, email } = await projectWithDomain(t, 'pending-shop.example', false);
    expect((await endUserApi(t, p.authKey, 'POST', '/recover', { email })).statusCode).toBe(200);
    expect(t.outbox().filter((m) => m.to.includes(email)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Reset your password for /)]);
    expect(sink.messages.some((m) => m.includes(`To: ${email}`))).toBe(false);
  });

  it('without MAIL_PROJECT_SMTP_URL even a verified domain sends from the platform (outbox)', async () => {
    const { p, email } = await projectWithDomain(plain, 'plain-shop.example', true);
    expect((await endUserApi(plain, p.authKey, 'POST', '/recover', { email })).statusCode).toBe(200);
    expect(plain.outbox().filter((m) => m.to.includes(email)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Reset your password for /)]);
  });
});
