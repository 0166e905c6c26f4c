import { Link } from 'react-router-dom';
import { storefrontMessages } from '../../domain/messages.js';
import { useTitle } from '../hooks/useTitle.js';

export default function NotFound() {
  useTitle(storefrontMessages.pageNotFound);
  return (
    <div className="page">
      <h1>{storefrontMessages.pageNotFound}</h1>
      <p>
        <Link to="/home">Go to the home page</Link> or <Link to="/products">see all products</Link>.
      </p>
    </div>
  );
}
