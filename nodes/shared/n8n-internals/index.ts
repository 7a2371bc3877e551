/**
 * Every shortcut of the pack that relies on how n8n behaves inside rather than on its
 * documented node API, in one place. Each says what it relies on, where that lives in
 * n8n's source, what it buys, and what the pack does when the assumption does not hold
 * (n8n's documented path). One folder: this index, and the files that hold the shortcuts
 * (parameters.ts: 1, 2, 5; requests.ts: 3, 4; polls.ts: 7 and the poll budget; 6 and 10 in
 * polling/machine.ts, the state machine that uses them; 8 and 9 next to the code they explain). `test/integration/n8n-internals.test.ts` pins each behaviour
 * against the real n8n-core: `npm run test:internals` (the newest n8n of the tested range,
 * the devDependency) and `npm run test:internals:oldest` (1.123.81, from the pinned
 * runtime), so an n8n upgrade fails a named test instead of misbehaving.
 *
 * 1. The expression mark (`=`)            → holdsExpression, sameForEveryItem
 * 2. "Could not get parameter"           → isNotShown
 * 3. The token on n8n's plain request,
 *    n8n's OAuth2 helper only on a 401   → send, storedToken, CredentialInfo
 * 4. Items read ahead of their turn       → (documented here; the gate is concurrency.ts)
 * 5. "={{ $json.key }}" is the item's own
 *    value                               → readableWithoutN8n, readWithoutN8n
 * 6. An activation's polls share one
 *    static data object (durable: each
 *    poll its own copy)                  → polling/machine.ts beginTurn, pollOnce (P2, P11)
 * 7. A poll that delivers nothing commits
 *    its own cursor (durable cursors)    → commitOwnCursor
 * 8. Hidden only off a new default       → (described at Sales record/fields.ts columnsField)
 * 9. A model reads a tool error's message → (described at Sales record/json-input.ts forModel)
 * 10. A node's polls run in one process,
 *    and a delivery lands after its poll → polling/machine.ts beginTurn, endTurn (P2, P3, P11)
 * 11. A webhook trigger that also polls  → (described at BusinessPlatformTrigger/trigger.ts poll, execute)
 *
 * 11 in full. Relies on: n8n activates every node whose type has a `poll` method as a poll node
 * (Workflow.getPollNodes; n8n 2.41's publication service counts it as an in-memory trigger and
 * re-activates it, webhooks included, when n8n starts: workflow-publication-reconciler.js,
 * findMissingActiveWorkflows → publish → activate → registerWebhookTriggers) beside its webhooks,
 * on the schedule of its `pollTimes` parameter (n8n-core ActiveWorkflows.activatePolling reads it
 * with getNodeParameter, so a hidden parameter with a default serves); and that an execution runs
 * a node's `execute` before its `poll` (n8n-core WorkflowExecute.runNode), so the event of a
 * delivery or a test event passes through the node. Buys: the Trigger heals its registrations
 * every minute and at every start, without a person (heal.ts). When it does not hold: the
 * registrations are checked only when the workflow is published (n8n's documented path).
 */
export * from './parameters';
export * from './polls';
export * from './requests';
