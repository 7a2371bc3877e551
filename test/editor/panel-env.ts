/**
 * The world of the nodes-panel files (panel.test.ts, panel-wording.test.ts): the
 * demo (test/editor/env.ts), plus its first workflow as saved before version 2.
 */
import { demoAtVersion1, useEditor } from './env';

/** The first demo as a workflow saved before version 2 (Sales version 1: pipeline and stage dropdowns). */
export const SAMPLE_DEAL_V1 = 'bpEditorSampleDealV1';

/** useEditor with that world: call it at the top of the test file. */
export const usePanelEditor = () =>
	useEditor({ workflows: [demoAtVersion1('bpDemoSampleDeal', SAMPLE_DEAL_V1)] });
