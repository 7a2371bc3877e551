/**
 * The pack's node types as the n8n-core harness runs them: every node of the pack by the name n8n gives it once
 * installed (and the test-only transport node), built with n8n's default tuning or a test file's own, and n8n's
 * node-type registry over them (a versioned node gives the node type of the workflow node's version).
 */
import type { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { BusinessPlatformCampaigns } from '../../nodes/BusinessPlatformCampaigns/BusinessPlatformCampaigns.node.ts';
import { BusinessPlatformPeople } from '../../nodes/BusinessPlatformPeople/BusinessPlatformPeople.node.ts';
import { BusinessPlatformSales } from '../../nodes/BusinessPlatformSales/BusinessPlatformSales.node.ts';
import { BusinessPlatformSalesTrigger } from '../../nodes/BusinessPlatformSalesTrigger/BusinessPlatformSalesTrigger.node.ts';
import { BusinessPlatformPeopleTrigger } from '../../nodes/BusinessPlatformPeopleTrigger/BusinessPlatformPeopleTrigger.node.ts';
import { BusinessPlatformCampaignsTrigger } from '../../nodes/BusinessPlatformCampaignsTrigger/BusinessPlatformCampaignsTrigger.node.ts';
import { BusinessPlatformTableTrigger } from '../../nodes/BusinessPlatformTableTrigger/BusinessPlatformTableTrigger.node.ts';
import { BusinessPlatformTrigger } from '../../nodes/BusinessPlatformTrigger/BusinessPlatformTrigger.node.ts';

import { TestTransport } from './pager-node';
import type { Tuning } from '../../nodes/shared/tuning';

export const PACKAGE = 'n8n-nodes-business-platform';

/** Every node of the pack, by the name n8n gives it once installed, built with `tuning` (n8n's defaults unless given). */
/** A node type of the pack: one description, or one per version (the Sales Trigger). */
export type PackNodeType = INodeType | IVersionedNodeType;

export function packNodeTypes(tuning?: Tuning): Record<string, PackNodeType> {
	return {
		[`${PACKAGE}.businessPlatformSales`]: new BusinessPlatformSales(tuning),
		[`${PACKAGE}.businessPlatformCampaigns`]: new BusinessPlatformCampaigns(tuning),
		[`${PACKAGE}.businessPlatformPeople`]: new BusinessPlatformPeople(tuning),
		[`${PACKAGE}.businessPlatformSalesTrigger`]: new BusinessPlatformSalesTrigger(tuning),
		[`${PACKAGE}.businessPlatformPeopleTrigger`]: new BusinessPlatformPeopleTrigger(tuning),
		[`${PACKAGE}.businessPlatformCampaignsTrigger`]: new BusinessPlatformCampaignsTrigger(tuning),
		[`${PACKAGE}.businessPlatformTableTrigger`]: new BusinessPlatformTableTrigger(tuning),
		// The trigger's first type name, hidden from the nodes panel; saved workflows use it.
		[`${PACKAGE}.businessPlatformTrigger`]: new BusinessPlatformTrigger(tuning),
		// Test only: the transport without an operation around it.
		[`${PACKAGE}.testTransport`]: new TestTransport(tuning),
	};
}

/** The pack's nodes with n8n's default tuning. */
export const NODE_TYPES: Record<string, PackNodeType> = packNodeTypes();

/**
 * The nodes the harness runs: NODE_TYPES, or, after `useTuning`, nodes built with a test file's
 * own tunables and clocks (test/helpers/tuning.ts), which the file may change between its tests.
 */
const harnessNodes: { types: Record<string, PackNodeType> } = { types: NODE_TYPES };

/** From now on (in this test file: jest loads the harness once per file), the harness's nodes run with `tuning`. */
export function useTuning(tuning: Tuning): void {
	harnessNodes.types = packNodeTypes(tuning);
}

/** The nodes the harness runs now (NODE_TYPES unless `useTuning` gave others). */
export const harnessNodeTypes = (): Record<string, PackNodeType> => harnessNodes.types;

/** A node type as n8n runs a workflow node of `version` (the newest when none is given). */
export const nodeTypeOf = (type: PackNodeType, version?: number): INodeType =>
	'nodeVersions' in type ? type.getNodeType(version) : type;

export class TestNodeTypes implements INodeTypes {
	constructor(private readonly nodes: Record<string, PackNodeType>) {}
	getByName(type: string): INodeType | IVersionedNodeType {
		const n = this.nodes[type];
		if (!n) throw new UnexpectedError(`Unknown node type ${type}`);
		return n;
	}
	/** A versioned node (VersionedNodeType) gives the node type of the workflow node's version, as in n8n. */
	getByNameAndVersion(type: string, version?: number): INodeType {
		const n = this.getByName(type);
		return 'nodeVersions' in n ? n.getNodeType(version) : n;
	}
	getKnownTypes(): IDataObject {
		return {};
	}
}
