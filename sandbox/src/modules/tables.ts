import type { Module } from '../module';

export const tables: Module = {
	name: 'tables',
	routes() {},
};
