// Zips for the hosting tests come from ../helpers/factories; `multipart` here is the deploy form
// shape some tests post by hand ({ payload, headers } for inject, fields then the zip).
import { multipart as form, type Part } from '../helpers/factories';

export { makeZip, type ZipItem } from '../helpers/factories';

export function multipart(fields: Record<string, string>, file?: { name?: string; data: Buffer; field?: string }) {
  const parts: Part[] = Object.entries(fields).map(([field, value]) => ({ field, value }));
  if (file) parts.push({ field: file.field ?? 'file', name: file.name ?? 'site.zip', type: 'application/zip', content: file.data });
  const { body, contentType } = form(parts);
  return { payload: body, headers: { 'content-type': contentType } };
}
