export * from './scripted/scriptedModel.js';
