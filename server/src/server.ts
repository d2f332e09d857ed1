// Starts the platform: listen, and close gracefully on SIGINT/SIGTERM.
import { loadConfig } from './config';
import { buildApp } from './app';

async function main() {
  const config = loadConfig();
  const app = await buildApp(config);
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { publicUrl: config.publicUrl, database: config.databaseUrl ? 'postgres' : 'pglite', storage: config.s3 ? 's3' : 'disk', mail: config.smtpUrl ? 'smtp' : 'outbox' },
    `Hostbase is up: ${config.publicUrl} (API ${config.publicUrl}/api, docs ${config.publicUrl}/api/docs)`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
