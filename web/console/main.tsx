import { render } from 'preact';

render(<main><h1>Partner services console</h1></main>, document.getElementById('app')!);
