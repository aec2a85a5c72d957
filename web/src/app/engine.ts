// The engine as the pages use it: the wasm module's EngineClient (a Web
// Worker, web/src/lib/engine.ts) started on first use for this variant.
// Its learned evaluation: `make web` ships each preset's net as a static
// file listed in /assets/nets.json (web/tools/nets.mjs); the worker says
// which preset's net applies to the variant (the wasm module's rule), this
// fetches that one file (once per page) and hands it over. Until it comes,
// or when it cannot be had, the engine evaluates by hand, and onEvaluation
// says so.
import { EngineClient } from '../lib/engine';
import { topochess } from './rules';
import type { Engine, EngineInfo, EngineLimits, VariantDetail } from './types';

interface NetEntry {
  preset: string;
  file: string;
  crc: string;
  size: number;
}

/** How long the first search waits for the net to arrive. */
const NET_WAIT_MS = 2000;

let manifest: Promise<NetEntry[]> | null = null;
const netFiles = new Map<string, Promise<ArrayBuffer>>();

/** The nets the site ships (none when the list cannot be read). */
function nets(): Promise<NetEntry[]> {
  manifest ??= fetch('/assets/nets.json')
    .then((r) => (r.ok ? (r.json() as Promise<{ nets?: NetEntry[] }>) : { nets: [] }))
    .then((j) => (Array.isArray(j.nets) ? j.nets : []))
    .catch(() => []);
  return manifest;
}

/** A net file's bytes, fetched once per page (a failed fetch is tried again
 * by the next engine). */
function netFile(n: NetEntry): Promise<ArrayBuffer> {
  let p = netFiles.get(n.file);
  if (!p) {
    p = fetch(`/${n.file}`).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.arrayBuffer();
    });
    p.catch(() => netFiles.delete(n.file));
    netFiles.set(n.file, p);
  }
  return p;
}

/** What the engine evaluates with: the engine's own words, and a note when
 * a net that applies is on its way or could not be used. */
export interface EvaluationState {
  evaluation: string;
  note: string | null;
}

export function createEngine(detail: VariantDetail, onEvaluation?: (s: EvaluationState) => void): Engine {
  let client: Promise<EngineClient> | null = null;
  const tell = (evaluation: string, note: string | null) => onEvaluation?.({ evaluation, note });
  const withNet = async (c: EngineClient, list: NetEntry[]) => {
    const entry = list.find((n) => n.preset === c.netPreset);
    tell(c.evaluation, entry ? `loading the net for ${entry.preset}` : null);
    if (!entry) return;
    let bytes: ArrayBuffer;
    try {
      bytes = await netFile(entry);
    } catch (e) {
      tell(c.evaluation, `the net for ${entry.preset} could not be fetched (${(e as Error).message})`);
      return;
    }
    const s = await c.loadNet(bytes);
    tell(s.evaluation, s.error ? `the net for ${entry.preset} was refused: ${s.error}` : null);
  };
  const get = () => {
    client ??= Promise.all([topochess(), nets()]).then(async ([tc, list]) => {
      const c = await EngineClient.create({
        module: tc.module,
        variant: detail.frontmatter ? { frontmatter: detail.frontmatter } : { preset: detail.slug },
        nets: list.map((n) => n.preset),
      });
      const loading = withNet(c, list).catch((e: Error) => tell(c.evaluation, `the net could not be loaded: ${e.message}`));
      // The worker takes the net only between searches: the first search
      // (the analysis page's runs for seconds) waits a little for it, and a
      // slow fetch does not hold it up longer.
      await Promise.race([loading, new Promise((r) => setTimeout(r, NET_WAIT_MS))]);
      return c;
    });
    return client;
  };
  let live: EngineClient | null = null;
  return {
    async search(fen: string, moves: string[], limits: EngineLimits, onInfo: (i: EngineInfo) => void) {
      const c = await get();
      live = c;
      const r = await c.search({
        fen,
        moves,
        ...(limits.depth ? { depth: limits.depth } : {}),
        ...(limits.movetime ? { movetime: limits.movetime } : {}),
        ...(limits.level ? { level: limits.level } : {}),
        ...(limits.multipv ? { multipv: limits.multipv } : {}),
        onInfo: (i) =>
          onInfo({
            multipv: i.multipv ?? 1,
            depth: i.depth,
            score: i.mate ? { mate: i.mate } : { cp: i.score },
            pv: i.pv,
            pvUci: i.pvUci ? i.pvUci.split(' ') : [],
            nodes: i.nodes,
            nps: i.nps,
          }),
      });
      return r.best;
    },
    async value(fen: string, moves: string[], nodes: number) {
      const c = await get();
      live = c;
      const r = await c.search({ fen, moves, nodes });
      return { score: r.score, mate: r.mate, depth: r.depth, best: r.best };
    },
    stop() {
      live?.stop();
    },
    terminate() {
      void client?.then((c) => c.terminate());
    },
  };
}
