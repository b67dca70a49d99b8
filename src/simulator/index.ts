/**
 * The reference simulator: {@link createSimulator} in-process or on a port, its controls, and the
 * seeded entities ({@link SEEDED}). Clients bound to a simulator (`createMockVenue`,
 * `getMockSimulator`) are test support: `match-venue/testing`. A scenario file's contract is its
 * published JSON Schema (`schemas/scenario.schema.json`, shipped) and {@link ScenarioDocument}.
 *
 * @module match-venue/simulator
 */

export {
  type AdvanceOptions,
  ClockJumpInProgressError,
  ClockJumpTooLargeError,
  JUMP_ORDER_LIMIT,
  type JumpView,
} from './clock/clock-jump.js';
export type { WireAccountSummary } from './engine/account.js';
export type { WireInput } from './engine/bank-wires.js';
export type { ClearingRule } from './engine/clearing-types.js';
export type { AllOrdersQuery } from './engine/dashboard-views.js';
export type { PresetName } from './engine/fault-presets.js';
export type { FaultSettings, Faults } from './engine/faults.js';
export type { WireMoney } from './engine/money.js';
export type { ClearingReport, CurveRegion, IndicativeReport, ReportOrder } from './engine/report.js';
export type { WireAuction, WireOrder } from './engine/rest-shapes.js';
export { SEED_BALANCES, SEEDED, type SeededName } from './engine/seed.js';
export type { EngineStateView } from './engine/state-views.js';
export type {
  AuctionPhase,
  FundingSide,
  OrderStatus,
  OrderType,
  PostFillAction,
  SettlementFaults,
  SimulatorAccountEvent,
  SimulatorEvent,
  SimulatorMarketEvent,
} from './engine/types.js';
export type { EventInterest } from './events/event-fanout.js';
export type { EventLogBounds, EventLogOption } from './events/event-log.js';
export type { RateLimitOptions } from './http/rate-limit.js';
export type { RequestLogEntry, RequestLogHook } from './http/request-log.js';
export {
  MARKET_PRESETS,
  type MarketConfig,
  MarketConfigError,
  type MarketOption,
  type MarketOverrides,
  type MarketPreset,
  type MarketRange,
} from './market/config.js';
export { loadMarket } from './market/load.js';
export type { MarketStats, MarketSummary } from './market/population.js';
export {
  CASSETTE_VERSION,
  type CassetteEntry,
  type CassetteHeader,
  type CassetteHttp,
  type CassetteRequest,
  type CassetteWebhook,
  type CassetteWs,
  type CassetteJson,
} from '../contract/cassette.js';
export {
  type CassetteDocument,
  CassetteError,
  parseCassette,
  readCassette,
} from './cassette/read.js';
export {
  type ProbeDifference,
  type ProbeKeyAssignment,
  type ProbeOptions,
  type ProbeReport,
  probeCassette,
} from './probe/probe.js';
export { renderProbeReport } from './probe/render.js';
export { checkScenario, type ResolvedScenario, ScenarioError, type ScenarioPhase } from './scenario/check.js';
export { loadScenario } from './scenario/load.js';
export { SCENARIO_VERSION } from './scenario/schema.js';
export type {
  ScenarioClock,
  ScenarioDocument,
  ScenarioEntity,
  ScenarioFaultEntry,
  ScenarioPhaseDocument,
} from './scenario/types.js';
export type { ListenOptions, RunningSimulator } from './serve/listen.js';
export {
  type ControlSignal,
  createSimulator,
  type EntityRef,
  type EventLogView,
  type Logger,
  type OptionDefaults,
  Simulator,
  type SimulatorOptions,
  type SimulatorStateView,
} from './simulator.js';
export {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type SnapshotDocument,
  SnapshotError,
} from './snapshot/document.js';
export type { StoreOption } from './store/simulator-store.js';
export { StoreUnavailableError } from './store/sqlite.js';
export { StoreLayoutError } from './store/store-file.js';
export { StoreInUseError } from './store/store-lock.js';
export { StoreWriteError } from './store/writer.js';
