/** Entry point of the Tock window. */
import { render } from 'preact';
import { App } from './App.tsx';
import { connect } from './state.ts';
import './styles.css';

void connect();
render(<App />, document.getElementById('app') as HTMLElement);
