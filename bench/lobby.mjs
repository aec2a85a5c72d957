// The lobby under load: WATCHERS lobby streams (server-sent events) held
// open from this one process, SEEKS open seeks posted by SEEKS/3 accounts,
// then the time for one more seek to reach every watcher, and the
// server's resident memory. Run by bench/lobby.sh, which starts the server.
//   node bench/lobby.mjs URL PID WATCHERS SEEKS
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [url, pid, watchers, seeks] = [process.argv[2], process.argv[3], +process.argv[4], +process.argv[5]];
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const rss = () => readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1] / 1024;

function request(method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const r = http.request(url + path, { method, agent, headers }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: data }));
    });
    r.on('error', reject);
    if (body) r.end(body); else r.end();
  });
}

const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
async function account(i) {
  const who = { ...form, 'X-Forwarded-For': `198.18.${i >> 8}.${i & 255}` };
  const r = await request('POST', '/signup', `name=bench${i}&password=lobby+bench&password2=lobby+bench`, who);
  const cookie = (r.headers['set-cookie'] || [''])[0].split(';')[0];
  const page = await request('GET', '/account', null, { Cookie: cookie });
  const csrf = page.body.match(/name="csrf" value="([^"]+)"/)?.[1];
  if (!cookie || !csrf) throw new Error(`sign-up ${i}: ${r.status}`);
  return { cookie, csrf, from: who['X-Forwarded-For'] };
}
// each owner seeks from its own address (seeks are limited per address too)
const seek = (a, clock) => request('POST', '/lobby/seek', `csrf=${a.csrf}&variant=klein-bottle&clock=${clock}`,
  { ...form, Cookie: a.cookie, 'X-Forwarded-For': a.from });

const rss0 = rss();
// every owner keeps a stream open, as a lobby page does
const owners = [];
for (let i = 0; i < Math.ceil((seeks + 1) / 3); i++) owners.push(await account(i));
const streams = [], states = [];
let marker = null, seen = 0, resolveAll;
const allSeen = new Promise((r) => (resolveAll = r));
const check = (st) => {
  if (marker && !st.counted && st.buf.includes(marker)) {
    st.counted = true;
    if (++seen === watchers) resolveAll();
  }
};
function open(cookie) {
  return new Promise((resolve) => {
    const st = { buf: '', counted: false, watcher: !cookie };
    const req = http.get(url + '/api/lobby/events', { agent, headers: cookie ? { Cookie: cookie } : {} }, (res) => {
      let got = false;
      res.setEncoding('utf8');
      res.on('data', (c) => {
        st.buf += c;
        if (!got && st.buf.includes('event: seeks')) { got = true; resolve(); }
        if (st.watcher) check(st);
        if (st.buf.length > 1 << 20) st.buf = st.buf.slice(-65536);
      });
    });
    streams.push(req);
    states.push(st);
  });
}
for (const o of owners) await open(o.cookie);
for (let i = 0; i < seeks; i++) {
  const r = await seek(owners[Math.floor(i / 3)], i % 2 ? 'corr3' : '10%2B5');
  if (r.status !== 303) throw new Error(`seek ${i}: ${r.status} ${r.body.slice(0, 200)}`);
}
const t0 = Date.now();
const batch = 100;
for (let i = 0; i < watchers; i += batch)
  await Promise.all(Array.from({ length: Math.min(batch, watchers - i) }, () => open(null)));
const tOpen = Date.now() - t0;
const rssFull = rss();
// one more seek, from the last owner: when has every watcher's list got it?
const last = owners[owners.length - 1];
const before = JSON.parse((await request('GET', '/api/lobby')).body).seeks.map((s) => s.id);
const t1 = Date.now();
const r = await seek(last, '3%2B2');
if (r.status !== 303) throw new Error(`the timed seek: ${r.status}`);
const after = JSON.parse((await request('GET', '/api/lobby')).body).seeks.map((s) => s.id);
marker = after.find((id) => !before.includes(id));
for (const st of states) if (st.watcher) check(st);
await Promise.race([allSeen, new Promise((r) => setTimeout(r, 30000))]);
const tAll = Date.now() - t1;
console.log(`watchers ${watchers}, open seeks ${seeks} (+1), owners' streams ${owners.length}`);
console.log(`opening ${watchers} streams: ${tOpen} ms`);
console.log(`server RSS: ${rss0.toFixed(1)} MB at start, ${rssFull.toFixed(1)} MB with the streams and seeks`);
console.log(`a new seek reached ${seen}/${watchers} watchers in ${tAll} ms (the lobby's thread wakes at each change)`);
for (const s of streams) s.destroy();
process.exit(seen === watchers ? 0 : 1);
