import { render } from 'preact';

// Placeholder entry: the hosted capture page replaces this.
render(<main><h1>Identity capture</h1></main>, document.getElementById('app')!);
