import { Navigate, useParams } from 'react-router-dom';
import { categoryUrl } from '../components/Header.js';

/**
 * `/category/{name}`: where the spec's All Categories list pointed (a route
 * it never declared). Links shared from the old shop land on the category's
 * products instead of Not Found.
 */
export default function CategoryAlias() {
  const { name = '' } = useParams();
  return <Navigate to={categoryUrl(name)} replace />;
}
