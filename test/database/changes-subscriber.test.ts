// One SSE client's queue (changes.ts Subscriber), on a stream that stops taking data: events wait
// in order while it is full, and a client that falls too far behind is dropped with a final
// `error` event instead of holding memory without bound (other clients never wait for it).
import { Writable } from 'node:stream';
import { Subscriber } from '../../server/src/modules/database/changes';

/** A sink that takes one chunk and then nothing until release(). */
function stalledSink() {
  const chunks: string[] = [];
  const held: (() => void)[] = [];
  const sink = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      held.push(done);
    },
  });
  const release = () => {
    while (held.length) held.shift()!();
  };
  return { sink, chunks, release };
}

const limits = { queuedEvents: 3, endGraceMs: 50 };

test('events wait in order while the client is full, and flow again when it drains', async () => {
  const { sink, chunks, release } = stalledSink();
  const sub = new Subscriber('p', 't', null, sink, limits);
  for (let i = 1; i <= 4; i++) sub.send('INSERT', { i });
  expect(chunks).toHaveLength(1);
  // Released one by one: the queue drains in order.
  for (let i = 0; i < 10 && chunks.length < 4; i++) {
    release();
    await new Promise((r) => setImmediate(r));
  }
  expect(chunks.map((c) => JSON.parse(c.split('data: ')[1]).i)).toEqual([1, 2, 3, 4]);
  expect(sub.isClosed).toBe(false);
});

test('a client more than queuedEvents behind is dropped with a final error event', async () => {
  const { sink, chunks, release } = stalledSink();
  const sub = new Subscriber('p', 't', null, sink, limits);
  const finished = new Promise((r) => sink.on('finish', r));
  sub.send('INSERT', { i: 1 }); // taken; the sink is now full
  for (let i = 2; i <= 4; i++) sub.send('INSERT', { i }); // queued (3)
  sub.send('INSERT', { i: 5 }); // one too many
  expect(sub.isClosed).toBe(true);
  sub.send('INSERT', { i: 6 }); // ignored
  for (let i = 0; i < 10; i++) {
    release();
    await new Promise((r) => setImmediate(r));
  }
  await finished;
  expect(chunks).toEqual([
    'event: INSERT\ndata: {"i":1}\n\n',
    'event: error\ndata: {"message":"This stream fell behind by 3 events and was closed; reconnect and re-read"}\n\n',
  ]);
});

test('an ended stream whose client reads nothing is cut after the grace period', async () => {
  const { sink } = stalledSink();
  const sub = new Subscriber('p', 't', null, sink, limits);
  sub.send('INSERT', { i: 1 });
  sub.end();
  await new Promise((r) => setTimeout(r, 120));
  expect(sink.destroyed).toBe(true);
});

test('keep-alive comments are skipped while events wait', () => {
  const { sink, chunks } = stalledSink();
  const sub = new Subscriber('p', 't', null, sink, limits);
  sub.comment('keep-alive');
  sub.comment('keep-alive');
  expect(chunks).toEqual([': keep-alive\n\n']);
});
