/**
 * At most one write per item, and no silent write (test/integration/at-most-once/matrix.ts says what each cell
 * checks): the creates of the three nodes and the writes to one record (updates, replaces, deletes), under every
 * fault, at Parallel Requests 1, 5 and 20, Continue On Fail off and on. The other writes: at-most-once-others.test.ts.
 */
import { atMostOnce } from './at-most-once/matrix';

atMostOnce('sales');
