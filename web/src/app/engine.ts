// The engine as the pages use it: the wasm module's EngineClient (a Web
// Worker, web/src/lib/engine.ts) started on first use for this variant.
import { EngineClient } from '../lib/engine';
import { topochess } from './rules';
import type { Engine, EngineInfo, EngineLimits, VariantDetail } from './types';

export function createEngine(detail: VariantDetail): Engine {
  let client: Promise<EngineClient> | null = null;
  const get = () => {
    client ??= topochess().then((tc) =>
      EngineClient.create({
        module: tc.module,
        variant: detail.frontmatter ? { frontmatter: detail.frontmatter } : { preset: detail.slug },
      }),
    );
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
    stop() {
      live?.stop();
    },
    terminate() {
      void client?.then((c) => c.terminate());
    },
  };
}
