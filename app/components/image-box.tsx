/** A square product image, or a placeholder icon when there is none (the product cards of /explore and ProductGrid). */
export function ImageBox({ src, alt }: { src: string | null; alt: string }) {
  return (
    <div className="aspect-square w-full overflow-hidden bg-gray-100">
      {src ? (
        <img src={src} alt={alt} loading="lazy" className="h-full w-full object-cover" />
      ) : (
        <div className="grid h-full w-full place-items-center text-gray-400" aria-hidden="true">
          <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.5} className="h-10 w-10">
            <path d="M3 16l5-5 4 4 3-3 6 6M3 5h18v14H3z" />
          </svg>
        </div>
      )}
    </div>
  );
}
