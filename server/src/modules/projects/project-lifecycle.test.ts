// The lifecycle registry's order: each section after the ones it names, by name among the free,
// whatever order the modules registered in; a name twice, an unknown `after` and a circle refused.
import { LifecycleError, ProjectLifecycles, requireUuid, type ProjectLifecycle } from './project-lifecycle';

const section = (name: string, after?: string[]): ProjectLifecycle => ({ name, after, tables: {}, export: async () => undefined, import: async () => undefined });

test('sections come after the ones they name, by name otherwise, in any registration order', () => {
  const names = (order: ProjectLifecycle[]) => {
    const l = new ProjectLifecycles();
    for (const s of order) l.register(s);
    return l.ordered().map((s) => s.name);
  };
  const all = [section('storage', ['projects', 'auth-users']), section('auth-users', ['projects']), section('hosting', ['projects']), section('projects')];
  expect(names(all)).toEqual(['projects', 'auth-users', 'hosting', 'storage']);
  expect(names([...all].reverse())).toEqual(['projects', 'auth-users', 'hosting', 'storage']);
});

test('a name twice, a bad name, an unknown section to come after, and a circle are refused', () => {
  const l = new ProjectLifecycles();
  l.register(section('projects'));
  expect(() => l.register(section('projects'))).toThrow('the lifecycle section projects is registered twice');
  expect(() => l.register(section('Bad Name'))).toThrow(/lowercase letters/);
  l.register(section('storage', ['auth-users']));
  expect(() => l.ordered()).toThrow('the lifecycle section storage comes after auth-users, which no module registered');
  const c = new ProjectLifecycles();
  c.register(section('a', ['b']));
  c.register(section('b', ['a']));
  expect(() => c.ordered()).toThrow('circle: a, b');
});

test('an id from an archive must be a uuid before it names a row or a key', () => {
  expect(requireUuid('0b6f1c9e-3f7a-4c2d-9e8b-1a2b3c4d5e6f', 'id')).toBe('0b6f1c9e-3f7a-4c2d-9e8b-1a2b3c4d5e6f');
  expect(() => requireUuid('../../etc', "a file's object_id")).toThrow(new LifecycleError("a file's object_id is not a uuid"));
});
