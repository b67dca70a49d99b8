// Layer boundaries of match-venue, checked by `npm run lint:deps` (part of `npm run check`, so CI)
// and by test/package/boundaries.test.ts. The layers (src/testing/README.md):
//
//   validation src/validation/                    the checks' library; imports nothing of the others
//   contract   src/generated/, src/contract/      facts of the API, and the error base both sides throw on
//                                                 (MatchVenueError); imports only validation
//   webhook-crypto src/webhook-crypto/            webhook signing, SNS string-to-sign, DER/X.509, node:crypto
//                                                 lookup; over contract only (simulator and webhooks share it)
//   core       src/core/                          request pipeline; imports only core, contract, validation
//   resources  src/resources/                     one class per resource
//   stream     src/stream/                        WebSocket client
//   state      src/state/                         account mirror and waits; over core, stream, contract
//   client     src/client/, src/index.ts          MatchVenue, its options, config and mock-mode loading; the main entry
//   webhooks   src/webhooks/                      receiver toolkit (its own entry)
//   simulator  src/simulator/                     reference venue; imports only contract, validation,
//                                                 webhook-crypto and itself
//   testing    src/testing/                       mock mode, createMockVenue, msw; over client + simulator
//
// Inside the simulator, sub-layers from the bottom up (src/simulator/README.md, Layout); no arrow
// runs back up:
//   engine/                                        the venue as a pure state machine; imports none of the others
//   market/ scenario/ store/ clock/ events/ snapshot/   on the engine (market and store on the engine alone)
//   http/                                          the HTTP binding: routes, dispatch, node:http edges
//   ws/ platform/ ui/                              the other bindings, on http (the platform hands its
//                                                  routes to http through http/port.ts)
//   serve/                                         listen(): the bindings on node:http
//   simulator.ts, options.ts, index.ts, ...        the composition root
//   cli/, cli.ts                                   the command line, on top
//
// Type-only imports count (tsPreCompilationDeps): "never imports the simulator" means not even its
// types. A dynamic import with a variable specifier (mock mode's `match-venue/testing`) cannot be
// followed by this tool, nor by a bundler; that is the point of it.

const SIM_DOMAIN = '(engine|market|scenario|store|clock|events|snapshot)';
const SIM_BINDINGS = '(http|ws|platform|ui)';
const SIM_CLI = '^src/simulator/(cli/|cli[.]ts$)';

const SIMULATOR_MAY_IMPORT = '^src/(simulator|contract|generated|validation|webhook-crypto)/';

// TEMPORARY allowlist: imports that break `simulator-imports-only-contract` and wait for the contract
// layer to take the shared piece over. Each entry names one simulator file and exactly the files it
// may still import (`{ from: 'src/simulator/x.ts', to: ['src/webhooks/y.ts'] }`); any other import
// from that file is still an error. Remove an entry as soon as its piece has moved (the boundaries
// test fails on an entry that no longer matches). Empty: the webhook pieces the simulator shares with
// match-venue/webhooks live in src/contract/ (sns-message, v2-webhook: the API's facts) and
// src/webhook-crypto/ (sns-canonical, signing, der, self-signed-certificate, node-crypto).
const SIMULATOR_TEMPORARY_ALLOWLIST = [];

// TEMPORARY allowlist: modules that sit on import cycles closed only by type-only imports (no cycle
// at run time). `no-circular` still forbids every run-time cycle everywhere; listed files are exempt
// only from `no-circular-type-only`. Empty: the simulator's bindings depend on their ports
// (http/port.ts, ws/server.ts, serve/listen.ts) and the clearing helpers on clearing-types.ts.
const TYPE_CYCLE_TEMPORARY_ALLOWLIST = [];

const exact = (file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'simulator-imports-only-contract',
      comment:
        'The simulator is a reference venue: it may import the contract layer (src/contract, src/generated), the ' +
        'validation library (src/validation) the generated checks run on, the webhook crypto it shares with ' +
        'match-venue/webhooks (src/webhook-crypto) and itself, never the client, core, resources, stream, ' +
        'webhooks or testing support.',
      severity: 'error',
      from: {
        path: '^src/simulator/',
        pathNot: SIMULATOR_TEMPORARY_ALLOWLIST.map((entry) => exact(entry.from)),
      },
      to: { path: '^src/', pathNot: SIMULATOR_MAY_IMPORT },
    },
    ...SIMULATOR_TEMPORARY_ALLOWLIST.map((entry) => ({
      name: 'simulator-imports-only-contract',
      comment: `TEMPORARY allowlist entry for ${entry.from} (see SIMULATOR_TEMPORARY_ALLOWLIST).`,
      severity: 'error',
      from: { path: exact(entry.from) },
      to: { path: '^src/', pathNot: [SIMULATOR_MAY_IMPORT, ...entry.to.map(exact)] },
    })),
    {
      name: 'simulator-engine-at-bottom',
      comment:
        'The engine (src/simulator/engine) is the venue as a pure state machine: it imports nothing else of the ' +
        'simulator; what it shares with the market (the market order ids) lives in the engine.',
      severity: 'error',
      from: { path: '^src/simulator/engine/' },
      to: { path: '^src/simulator/', pathNot: '^src/simulator/engine/' },
    },
    {
      name: 'engine-state-private',
      comment:
        "The engine's state (src/simulator/engine/state.ts: EngineState, EngineContext) is the engine's own: " +
        'VenueEngine is its only writer. Other modules read it through the engine (its methods, the read-only ' +
        'views of engine/state-views.ts) and change it only through operations the engine defines (its venue ' +
        'operations, the seeder, the market desk); a module outside engine/ holding the state could change it ' +
        'behind the invariants.',
      severity: 'error',
      from: {
        path: '^src/simulator/',
        pathNot: '^src/simulator/engine/',
      },
      to: { path: '^src/simulator/engine/state[.]ts$' },
    },
    {
      name: 'simulator-market-and-store-on-engine',
      comment: 'The background market and the store build on the engine alone (and on themselves).',
      severity: 'error',
      from: { path: '^src/simulator/(market|store)/' },
      to: { path: '^src/simulator/', pathNot: '^src/simulator/(engine|$1)/' },
    },
    {
      name: 'simulator-domain-under-bindings',
      comment:
        'market, scenario, store, clock, events and snapshot build on the engine and on each other, never on a ' +
        'binding (http, ws, platform, ui), listen() (serve), the composition root or the CLI.',
      severity: 'error',
      from: { path: `^src/simulator/${SIM_DOMAIN}/` },
      to: { path: '^src/simulator/', pathNot: `^src/simulator/${SIM_DOMAIN}/` },
    },
    {
      name: 'simulator-bindings-under-serve',
      comment:
        'The bindings (http, ws, platform, ui) build on the engine and its neighbours, never on listen() (serve), ' +
        'the composition root or the CLI: they see the simulator through their ports.',
      severity: 'error',
      from: { path: `^src/simulator/${SIM_BINDINGS}/` },
      to: { path: '^src/simulator/', pathNot: `^src/simulator/(${SIM_DOMAIN}|${SIM_BINDINGS})/` },
    },
    {
      name: 'simulator-http-under-bindings',
      comment:
        'The HTTP binding (http) is the one the others build on: it imports none of ws, platform or ui. The ' +
        'platform hands its routes to the dispatch through http/port.ts (PlatformPort), listen() hands http the ' +
        'dashboard asset paths.',
      severity: 'error',
      from: { path: '^src/simulator/http/' },
      to: { path: '^src/simulator/(ws|platform|ui)/' },
    },
    {
      name: 'simulator-ui-on-http',
      comment:
        'The dashboard (ui) is built on the HTTP binding, beside ws and platform, which do not import it.',
      severity: 'error',
      from: { path: '^src/simulator/(ws|platform)/' },
      to: { path: '^src/simulator/ui/' },
    },
    {
      name: 'simulator-serve-under-root',
      comment:
        'listen() (serve) puts the bindings on node:http; it imports neither the composition root nor the CLI.',
      severity: 'error',
      from: { path: '^src/simulator/serve/' },
      to: { path: '^src/simulator/', pathNot: `^src/simulator/(${SIM_DOMAIN}|${SIM_BINDINGS}|serve)/` },
    },
    {
      name: 'simulator-cli-on-top',
      comment:
        'The command line (cli.ts, cli/) is on top of the simulator: nothing else of it imports the CLI.',
      severity: 'error',
      from: { path: '^src/simulator/', pathNot: SIM_CLI },
      to: { path: SIM_CLI },
    },
    {
      name: 'client-never-imports-simulator-or-testing',
      comment:
        'The client side (main entry, client, core, resources, stream, state) knows nothing of the simulator or ' +
        'the testing layer, not even types: mock mode gets a MockBinding through a run-time import of ' +
        'match-venue/testing (src/client/mock-mode.ts).',
      severity: 'error',
      from: { path: '^src/(index[.]ts$|(client|core|resources|stream|state)/)' },
      to: { path: '^src/(simulator|testing|msw)/' },
    },
    {
      name: 'entries-never-reach-simulator-testing-msw',
      comment:
        "Nothing reachable from the main entry (or match-venue/webhooks) is simulator, testing support or msw: a bot's " +
        'bundle stays small.',
      severity: 'error',
      from: { path: '^src/(index|webhooks/index)[.]ts$' },
      to: { path: ['^src/(simulator|testing|msw)/', '(^|/)node_modules/msw/', '^msw(/|$)'], reachable: true },
    },
    {
      name: 'core-imports-only-core-and-contract',
      comment: 'core (src/core) is the request pipeline under the resources: it never imports them.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/(core|contract|generated|validation)/' },
    },
    {
      name: 'state-imports-only-core-stream-contract',
      comment:
        'The state layer (src/state: the account mirror, the waits) is built over the pipeline and the stream; ' +
        'the resources hand it what it needs, so it never imports them (nor the client).',
      severity: 'error',
      from: { path: '^src/state/' },
      to: { path: '^src/', pathNot: '^src/(state|core|stream|contract|generated|validation)/' },
    },
    {
      name: 'contract-imports-only-contract',
      comment:
        'The contract (src/contract, src/generated) is what both sides import; it imports nothing of either, only ' +
        'the validation library its generated checks are written in.',
      severity: 'error',
      from: { path: '^src/(contract|generated)/' },
      to: { path: '^src/', pathNot: '^src/(contract|generated|validation)/' },
    },
    {
      name: 'validation-imports-nothing',
      comment:
        'The validation library (src/validation) knows no rule of the API and no layer: the rules are in openapi/, ' +
        'the checks written in the library are generated into src/generated/.',
      severity: 'error',
      from: { path: '^src/validation/' },
      to: { path: '^src/', pathNot: '^src/validation/' },
    },
    {
      name: 'webhook-crypto-imports-only-contract',
      comment:
        'The webhook crypto (src/webhook-crypto) is shared by the simulator and match-venue/webhooks: it builds on ' +
        'the contract and imports neither side, nor anything else.',
      severity: 'error',
      from: { path: '^src/webhook-crypto/' },
      to: { path: '^src/', pathNot: '^src/(webhook-crypto|contract|generated)/' },
    },
    {
      name: 'only-testing-imports-testing',
      comment: 'Testing support sits on top: no other layer imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(testing|msw)/' },
      to: { path: '^src/(testing|msw)/' },
    },
    {
      name: 'testing-uses-public-entries',
      comment:
        "The testing layer uses the client through 'match-venue' (src/index.ts) and the simulator through its index, " +
        'as a user would.',
      severity: 'error',
      from: { path: '^src/(testing|msw)/' },
      to: {
        path: '^src/',
        pathNot: ['^src/(testing|msw|contract|generated)/', '^src/index[.]ts$', '^src/simulator/index[.]ts$'],
      },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle that exists at run time (every edge a value import).',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        circular: true,
        dependencyTypesNot: ['type-only'],
        viaOnly: { dependencyTypesNot: ['type-only'] },
      },
    },
    {
      name: 'no-circular-type-only',
      comment:
        'No import cycle at all, type-only imports included (TEMPORARY allowlist: TYPE_CYCLE_TEMPORARY_ALLOWLIST).',
      severity: 'error',
      from: { path: '^src/', pathNot: TYPE_CYCLE_TEMPORARY_ALLOWLIST.map(exact) },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import of the source resolves (a typo, or a subpath missing from the tsconfig paths).',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};

// For the boundaries test, which proves every allowlist entry is still needed. Not enumerable: the
// tool validates the exported object against its schema, which has no such key.
Object.defineProperty(module.exports, 'temporaryAllowlists', {
  value: {
    simulator: SIMULATOR_TEMPORARY_ALLOWLIST,
    typeCycles: TYPE_CYCLE_TEMPORARY_ALLOWLIST,
  },
  enumerable: false,
});
