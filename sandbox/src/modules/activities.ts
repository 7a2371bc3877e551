import type { Module } from '../module';

export const activities: Module = {
	name: 'activities',
	routes() {},
};
