/**
 * At most one write per item, and no silent write (test/integration/at-most-once/matrix.ts says what each cell
 * checks): bulk writes, People and payroll writes, table records, email templates, stages and forms, under every
 * fault, at Parallel Requests 1, 5 and 20, Continue On Fail off and on. The creates and writes to one record:
 * at-most-once-sales.test.ts.
 */
import { atMostOnce } from './at-most-once/matrix';

atMostOnce('others');
