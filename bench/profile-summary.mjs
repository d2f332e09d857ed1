// `node bench/profile-summary.mjs <file.cpuprofile> [N]`: where a CPU profile (node --cpu-prof, or a
// bench's BENCH_PROFILE) spent its time: self time by package or source file, then by function.
import fs from 'node:fs';
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const N = Number(process.argv[3] ?? 40);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const dt = p.timeDeltas; let total = 0;
const counts = new Map();
for (let i = 0; i < p.samples.length; i++) { counts.set(p.samples[i], (counts.get(p.samples[i]) ?? 0) + (dt[i] ?? 0)); total += dt[i] ?? 0; }
const fnSelf = new Map(), fileSelf = new Map();
for (const [id, t] of counts) {
  const n = byId.get(id); const cf = n.callFrame;
  const file = (cf.url || '(native)').replace(/^.*node_modules\//, 'nm/').replace(/^file:\/\/.*\/server\/src\//, 'src/').replace(/^.*\/server\/src\//, 'src/');
  const key = `${cf.functionName || '(anon)'} ${file}:${cf.lineNumber}`;
  fnSelf.set(key, (fnSelf.get(key) ?? 0) + t);
  const pkg = file.startsWith('nm/') ? file.split('/').slice(0, file.split('/')[1].startsWith('@') ? 3 : 2).join('/') : file;
  fileSelf.set(pkg, (fileSelf.get(pkg) ?? 0) + t);
}
const pct = (t) => (100 * t / total).toFixed(1).padStart(5) + '%';
console.log('total sampled ms', (total / 1000).toFixed(0));
console.log('--- self by package/file');
for (const [k, t] of [...fileSelf].sort((a, b) => b[1] - a[1]).slice(0, N)) console.log(pct(t), k);
console.log('--- self by function');
for (const [k, t] of [...fnSelf].sort((a, b) => b[1] - a[1]).slice(0, N)) console.log(pct(t), k);
