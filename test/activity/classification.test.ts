// Every operation of the contract is classified for the activity log (a change with its summary,
// a read, or not the account's activity): a new operation in neither list fails here.
import { loadSpec } from '../../server/src/http/contract';
import { operationActivity } from '../../server/src/modules/activity/activity.classification';

const specOperations = Object.values(loadSpec().paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId!));

test('every operation of openapi.yaml is classified, and nothing else is', () => {
  const classified = Object.keys(operationActivity);
  expect(specOperations.filter((id) => !classified.includes(id))).toEqual([]);
  expect(classified.filter((id) => !specOperations.includes(id))).toEqual([]);
});

test('the app-side calls (a project key) are never account activity', () => {
  const spec = loadSpec();
  for (const methods of Object.values(spec.paths)) {
    for (const op of Object.values(methods)) {
      const schemes = (op.security ?? spec.security ?? []).flatMap((alt) => Object.keys(alt));
      if (schemes.includes('bucketKey') || schemes.includes('authKey')) expect([op.operationId, operationActivity[op.operationId as keyof typeof operationActivity].kind]).toEqual([op.operationId, 'not-account-activity']);
    }
  }
});

test('summaries read well from the call, and may say nothing changed', () => {
  const summary = (id: keyof typeof operationActivity, body: Record<string, unknown>, notes = {}) => {
    const c = operationActivity[id];
    if (c.kind !== 'changes') throw new Error(`${id} is not a change`);
    return c.summary({ body, params: {}, notes });
  };
  expect(summary('createProject', { projectName: 'Shop', subdomain: 'shop' })).toBe('Created project "Shop" (shop)');
  expect(summary('rotateProjectKey', { key: 'bucket' })).toBe('Rotated the secret key');
  expect(summary('rotateProjectKey', { key: 'authentication' })).toBe('Rotated the publishable key');
  expect(summary('deleteObjects', { file_ids: ['a', 'b', 'c'] }, { deleted: 3 })).toBe('Deleted 3 files');
  expect(summary('getAccountDetails', {})).toBeNull();
  expect(summary('getAccountDetails', { name: 'Ada\nLovelace' })).toBe('Changed the profile name to "Ada Lovelace"');
  expect(summary('createProject', { projectName: 'x'.repeat(500), subdomain: 's' })!.length).toBeLessThan(120);
});
