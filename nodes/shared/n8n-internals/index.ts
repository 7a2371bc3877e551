/**
 * Every shortcut of the pack that relies on how n8n behaves inside rather than on its
 * documented node API, in one registry: this table. Each row says what the pack relies on,
 * where the shortcut lives (a file under nodes/, the names that hold it; the file says
 * "n8n-internals <number>" where it is explained), what happens when n8n no longer behaves so,
 * and the test that pins the behaviour against the real n8n on both ends of the tested range
 * (`npm run test:internals`: the newest, the devDependency; `npm run test:internals:oldest`:
 * 1.123.81 from the pinned runtime), so an n8n upgrade fails a named test instead of
 * misbehaving. `test/unit/internals-registry.test.ts` holds the table against the code: every
 * file and name exists, every "n8n-internals <number>" in nodes/ has its row, every row its test.
 *
 * | # | What the pack relies on | Where | When it does not hold | Pinned by |
 * |---|---|---|---|---|
 * | 1 | A saved expression is text starting with "=", evaluated per item; any other saved value is the same for every item | shared/engine/params.ts › holdsExpression, sameForEveryItem | a value n8n evaluated without the mark would be read once for all items: the pinned test fails first | test/integration/n8n-internals.test.ts › 1. |
 * | 2 | getNodeParameter of a parameter its display conditions hide fails with "Could not get parameter" | shared/engine/params.ts › isNotShown | a parameter absent from the node's saved parameters is still "not shown"; anything else fails the item, naming the parameter | test/integration/n8n-internals.test.ts › 2. |
 * | 3 | The token sits in the credential's oauthTokenData; n8n's OAuth2 helper refreshes and saves on a 401 | shared/transport.ts › send | without a token there every request goes through n8n's OAuth2 path as a whole (documented); a 401 always does | test/integration/n8n-internals.test.ts › 3. |
 * | 4 | getNodeParameter answers at once (items read their parameters ahead of their turn) | shared/engine/execute.ts › OrderedGate | no other path: a promise would change n8n's node API (its type), so the typecheck fails | test/integration/n8n-internals.test.ts › 4. |
 * | 5 | "={{ $json.key }}" gives the item's own text, number or boolean unchanged | shared/engine/params.ts › readableWithoutN8n, readWithoutN8n | other shapes, and the first read of each parameter, go through getNodeParameter | test/integration/n8n-internals.test.ts › 5. |
 * | 6 | An activation's polls share one static data object (under the durable scheduler each poll has its own copy) | shared/polling/turns.ts › beginTurn, Turn | the state machine's rows P2 and P11 no longer order the polls: the pinned test fails first | test/integration/n8n-internals.test.ts › 6. |
 * | 7 | A poll that delivers nothing commits its own cursor under durable cursors (n8n's __commitCursor) | shared/n8n-internals/polls.ts › commitOwnCursor | without the hook (before 2.41) nothing happens; n8n saves static data with a poll's execution | test/integration/n8n-internals.test.ts › 7. |
 * | 8 | n8n completes saved parameters with their defaults before it evaluates display conditions | BusinessPlatformSales/resources/record/fields.ts › columnsField | `hide` matches only the new value: the mapper still shows | test/integration/n8n-internals.test.ts › 8. |
 * | 9 | The AI Agent hands a model a failed tool's error message without its description | BusinessPlatformSales/resources/record/json-input.ts › forModel | the model reads the description twice: no harm | test/e2e/ai-tools.e2e.test.ts › corrects a wrong column from the error |
 * | 10 | n8n loads a package once per process, runs every poll of a node on main, where it also runs a webhook trigger's activation hooks, and names a poll's and a hook's workflow and node alike (a test listener's hooks: mode manual) | shared/polling/turns.ts › beginTurn, endTurn, beginHeal, setLive | polls of one node in two processes are not kept apart (several mains); the Trigger's heal on a main that did not activate it does nothing | test/integration/n8n-internals.test.ts › 10. |
 * | 11 | A node type with `poll` is activated as a poll node beside its webhooks, reads its hidden Poll Times, and an execution runs its `execute` before its `poll` | BusinessPlatformSalesTrigger/webhook-trigger.ts › poll, execute | the registrations are checked only when the workflow is published (n8n's documented path) | test/integration/n8n-internals.test.ts › 11. |
 * | 12 | n8n 2.41 gives a poll its budget (getPollBudgetMs) | shared/n8n-internals/polls.ts › pollBudgetMs | the pack's own budget, 45 s, below the shortest Poll Time | test/integration/n8n-internals.test.ts › 6. |
 * | 13 | A webhook whose method evaluates to an empty text is no webhook: n8n registers none and calls no webhook method when it publishes, and a manual run runs the node instead of waiting for a test call | BusinessPlatformSalesTrigger/trigger-v4.ts › WEBHOOK_METHOD, webhookMethod | with a polling event chosen, publishing would register a webhook or the test button would wait for a call (the pinned test fails first) | test/e2e/polling.e2e.test.ts › a polling event needs no public address |
 * | 14 | n8n 2.41 resolves a webhook's method without its expression engine through the native resolver the description carries (Symbol.for('n8n.webhookDescriptionResolvers')) when the node's parameters hold no expression | BusinessPlatformSalesTrigger/trigger-v4.ts › WEBHOOK, webhookMethod | each delivery of an instant event to version 4 evaluates one expression, as on 1.x | test/integration/n8n-internals.test.ts › 14. |
 * | 15 | n8n 2.41's publication service aborts a publish or an unpublish after 0.7 × its lease (120 s by default): 84 s, and lets the webhook trigger's hook call run on in the background while it reports a failure; n8n 1.x awaits the hook however long | shared/n8n-internals/publication.ts › PUBLICATION_DEADLINE_MS, ACTIVATION_WAIT_MS | a longer deadline changes nothing; a lease below about 43 s makes an unpublish beside a slow heal fail in n8n while its hook goes on, and the heal, which stood down when the unpublish began, registers nothing again | test/integration/n8n-internals.test.ts › 15. |
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
export * from './polls';
export * from './publication';
