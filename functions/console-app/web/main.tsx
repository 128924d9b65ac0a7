// The console's entry: the reader's language first (its words and the page's direction), then
// the app. Changing the language loads the new words without leaving the screen.
import { render } from 'preact';
import { useState } from 'preact/hooks';
import './console.css';
import { consoleApi } from './api';
import { App } from './app';
import { chooseLanguage, loadLanguage, startLanguage, type TLanguage } from './i18n';
import { followLinksInPage } from './router';
import { type TWords, Words } from './words';

const api = consoleApi();
followLinksInPage();

function Root({ first }: { first: Omit<TWords, 'setLang'> }) {
  const [words, setWords] = useState(first);
  const setLang = (lang: TLanguage) => {
    chooseLanguage(lang);
    void loadLanguage(lang).then((loaded) => {
      document.title = loaded.t('title');
      setWords(loaded);
    });
  };
  return (
    <Words.Provider value={{ ...words, setLang }}>
      <App api={api} />
    </Words.Provider>
  );
}

const first = await loadLanguage(startLanguage());
document.title = first.t('title');
render(<Root first={first} />, document.getElementById('app')!);
