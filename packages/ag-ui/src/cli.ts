export { agUiCommand, AG_UI_USAGE } from './agUiCommand.js';
