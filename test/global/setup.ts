/** jest globalSetup (every run): the run's id, and processes of earlier killed runs stopped. */
import { beginRun } from './run';

export default function globalSetup(): void {
	beginRun();
}
