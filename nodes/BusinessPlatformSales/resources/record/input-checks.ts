/**
 * Record: the checks of a create's or update's cells that need no table (Create's and Update's
 * `check`): the Columns mapper's columns against the column list it was built from, or the
 * cells of "From JSON" as JSON. The checks against the table's columns (read from the
 * platform) are made with the cells, at the item's turn (cells.ts).
 */
import type { IDataObject, ResourceMapperField } from 'n8n-workflow';

import type { OpContext } from '../../../shared/engine/model';
import { cellsFromJson, cut, forModel } from './json-input';

interface MapperValue {
	mappingMode?: string;
	value?: IDataObject | null;
	schema?: ResourceMapperField[];
}

/** The Columns mapper's entries (as set by hand, or mapped from the input item), and whether it maps automatically. */
export function mapperEntries(ctx: OpContext): {
	entries: Array<[string, unknown]>;
	auto: boolean;
} {
	const mapper = (ctx.param<MapperValue>('columns', {}) ?? {}) as MapperValue;
	const auto = mapper.mappingMode === 'autoMapInputData';
	const entries = Object.entries(
		auto ? (ctx.fn.getInputData()[ctx.itemIndex]?.json ?? {}) : (mapper.value ?? {}),
	);

	// Columns the user set by hand must be in the column list the mapper was built from.
	const schema = Array.isArray(mapper.schema) ? mapper.schema : [];
	if (!auto && schema.length) {
		const known = new Set(schema.map((f) => f.id));
		for (const [key] of entries) {
			if (!known.has(key))
				throw ctx.fail(
					`Column "${cut(key)}" is not in the table`,
					`Columns: ${schema.map((f) => f.id).join(', ')}.`,
				);
		}
	}
	return { entries, auto };
}

/** The item's cells checked as far as they can be without the table's columns. */
export function checkCells(ctx: OpContext): void {
	if (ctx.param<string>('cellsInput', 'mapper') !== 'json') {
		mapperEntries(ctx);
		return;
	}
	try {
		cellsFromJson(ctx.param('cellsJson'), ctx);
	} catch (e) {
		throw forModel(e, ctx);
	}
}
