import { BoundedTasks } from './bounded-tasks';

const tick = () => new Promise((r) => setTimeout(r, 5));

test('no more than the limit run at once, and settle() waits for all of them', async () => {
  const tasks = new BoundedTasks(3);
  let now = 0;
  let most = 0;
  let done = 0;
  for (let i = 0; i < 10; i++) {
    await tasks.start(async () => {
      most = Math.max(most, ++now);
      await tick();
      now--;
      done++;
    });
  }
  await tasks.settle();
  expect(most).toBe(3);
  expect(done).toBe(10);
  expect(() => tasks.check()).not.toThrow();
});

test('the first failure is thrown by check() and by the next start(), which then starts nothing', async () => {
  const tasks = new BoundedTasks(2);
  await tasks.start(async () => {
    throw new Error('first');
  });
  await tasks.start(async () => {
    await tick();
    throw new Error('second');
  });
  await tasks.settle();
  expect(() => tasks.check()).toThrow('first');
  let ran = false;
  await expect(tasks.start(async () => void (ran = true))).rejects.toThrow('first');
  expect(ran).toBe(false);
});
