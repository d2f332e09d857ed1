import { ApiError } from './http';
import { allOf, createQueryClient, mutationErrorToast } from './queryClient';

const server = new ApiError('Name taken', 409, 'Name taken');
const offline = new ApiError('An unknown error occurred', 0);

test('a failed mutation toasts its message unless its page shows it', () => {
  expect(mutationErrorToast(server, undefined)).toEqual({ title: 'Name taken' });
  expect(mutationErrorToast(server, { errorToast: 'Could not save' })).toEqual({ title: 'Could not save', detail: 'Name taken' });
  expect(mutationErrorToast(offline, { errorToast: 'Could not save' })).toEqual({ title: 'Could not save', detail: 'An unknown error occurred' });
  const both = { errorToast: { title: 'Failed to create project', offline: 'Error while creating project' } };
  expect(mutationErrorToast(server, both)).toEqual({ title: 'Failed to create project', detail: 'Name taken' });
  expect(mutationErrorToast(offline, both)).toEqual({ title: 'Error while creating project' });
  expect(mutationErrorToast(server, { errorToast: false })).toBeNull();
});

test('the mutation cache toasts once per failure, and not for inline errors', async () => {
  const toastError = jest.fn();
  const client = createQueryClient({ toastError, retry: false });
  const run = (meta?: object) =>
    client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.reject(server), meta })
      .execute(undefined)
      .catch(() => undefined);
  await run();
  await run({ errorToast: false });
  expect(toastError.mock.calls).toEqual([['Name taken', undefined]]);
});

test('allOf keeps the operation path of a generated key', () => {
  expect(allOf(['/project/p1/auth/users_list', { page: 2 }])).toEqual(['/project/p1/auth/users_list']);
});
