// The wasm module's TypeScript API (see README.md beside this file).
export * from './topochess';
export { EngineClient } from './engine';
export type {
  EngineOptions, SearchInfo, SearchLimits, SearchRequest, SearchResult, StopMode, VariantSpec, WorkerLike,
} from './engine';
export type { WasmSource } from './wasm';
export { EndingsSolver } from './endings';
export type { EndingsJob, EndingsListener, EndingsWorkerLike } from './endings';
