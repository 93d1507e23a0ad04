import { useLoaderData } from "react-router";

export function loader() {
  return {
    title: "Floor",
    items: [
      { id: 1, name: "First item", price: "$10.00" },
      { id: 2, name: "Second item", price: "$20.00" },
      { id: 3, name: "Third item", price: "$30.00" },
    ],
  };
}

export function meta() {
  return [{ title: "Floor" }];
}

export default function Home() {
  const { title, items } = useLoaderData<typeof loader>();
  return (
    <main>
      <header>
        <h1>{title}</h1>
        <p>A bare React Router page: a constant loader, no session, none of the app's code.</p>
      </header>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <a href={`/item/${item.id}`}>
              <h2>{item.name}</h2>
              <span>{item.price}</span>
            </a>
          </li>
        ))}
      </ul>
      <footer>
        <small>Bench stack floor</small>
      </footer>
    </main>
  );
}
