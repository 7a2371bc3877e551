/** Outcomes of a node run that the resources' tests share, read from the run and the sandbox. */
import type { NodeRun } from '../../testbed/harness/run';

/** Delete of one record: the run succeeded, its one item says `{ deleted: true, id }`, and the record is gone from the sandbox. */
export function expectDeleted<K>(run: NodeRun, id: K, stored: { has(id: K): boolean }): void {
	expect(run.error).toBeUndefined();
	expect(run.json).toEqual([{ deleted: true, id }]);
	expect(stored.has(id)).toBe(false);
}
