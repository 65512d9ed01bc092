import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { registerServiceWorker } from './lib/offline/network.svelte.js';
import { theme } from './lib/theme.svelte.js';

theme.apply();
const target = document.getElementById('app');
if (target) mount(App, { target });
registerServiceWorker();
