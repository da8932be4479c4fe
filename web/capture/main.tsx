import { render } from 'preact';
import { App } from './components/app.js';
import { start } from './flow.js';
import { followLanguage } from './i18n/language.js';
import '../shared/base.css';
import './capture.css';

// The hosted capture page: the phone opens <PUBLIC_URL>/capture#<handoff_token> (docs/identity.md "Identity: the hosted capture page").
followLanguage();
render(<App />, document.getElementById('app')!);
start();
