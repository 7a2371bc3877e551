/**
 * The order in which jest hands test files to its workers: the files known to take minutes (the polling lanes
 * of n8n's schedulers, a real n8n in queue mode, a real n8n with restarts, the write-under-fault matrices) first, so that on 2 workers the long ones overlap
 * with the many short ones instead of starting last. Within the rest, jest's own order (failed and slow files first
 * where it has timings from an earlier run, else larger files first). A fresh clone has no timings: this list is
 * what keeps its `npm test` within budget (docs/development.md, "Test times").
 */
const Sequencer = require('@jest/test-sequencer').default;

const SLOW_FIRST = [
	'test/e2e/polling.e2e.test.ts',
	'test/queue/queue-polling.test.ts',
	'test/queue/queue.test.ts',
	'test/integration/at-most-once-sales.test.ts',
	'test/integration/at-most-once-others.test.ts',
	'test/e2e/oauth-trigger.e2e.test.ts',
	'test/e2e/cleanup.e2e.test.ts',
	'test/integration/fault-matrix.test.ts',
	'test/integration/polling-machine.property.test.ts',
	// The editor suite (npm run test:editor, 2 workers): longest first, the shortest last to fill the gap (each
	// file's time: docs/development.md, "Test times").
	'test/editor/panel-wording.test.ts',
	'test/editor/panel.test.ts',
	'test/editor/workflows.test.ts',
	'test/editor/credential.test.ts',
	'test/editor/workflows-demo.test.ts',
	'test/editor/start.test.ts',
	'test/editor/ai-tool.test.ts',
];

class SlowFirst extends Sequencer {
	sort(tests) {
		const rank = (test) => {
			const at = SLOW_FIRST.findIndex((file) => test.path.replace(/\\/g, '/').endsWith(file));
			return at < 0 ? SLOW_FIRST.length : at;
		};
		// Array.prototype.sort is stable: the rest keep jest's order.
		return [...super.sort(tests)].sort((a, b) => rank(a) - rank(b));
	}
}

module.exports = SlowFirst;
