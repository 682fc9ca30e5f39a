package shop

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pressroom/pressroom/commerce/storesite"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// TestStorePageMenus: each published page shows in the menu its seller chose (header, footer or
// side column); a draft shows nowhere and answers 404; titles are escaped and bodies sanitized.
func TestStorePageMenus(t *testing.T) {
	f := setup(t)
	for _, p := range []struct {
		title, slug, menu string
		published         bool
	}{
		{"About " + evil, "about", "header", true},
		{"Shipping", "shipping", "footer", true},
		{"Size guide", "size-guide", "side_column", true},
		{"Secret sale", "secret", "header", false},
	} {
		if _, err := f.db.Exec(`INSERT INTO store_pages (store_id, title, slug, body, menu_position, published) VALUES ($1, $2, $3, $4, $5, $6)`,
			f.storeID, p.title, p.slug, `<p onmouseover="steal()">Hello</p>`+evil+`<a href="javascript:alert(1)">x</a>`, p.menu, p.published); err != nil {
			t.Fatal(err)
		}
	}
	c := client(t)
	base := f.srv.URL + "/s/demo"
	_, body := get(t, c, base+"/")
	header := body[strings.Index(body, "<header>"):strings.Index(body, "</header>")]
	footer := body[strings.Index(body, "<footer>"):strings.Index(body, "</footer>")]
	aside := body[strings.Index(body, `<aside class="side"`):strings.Index(body, "</aside>")]
	for _, tc := range []struct {
		name, part, want string
	}{
		{"header", header, `<a href="/s/demo/p/about">About &lt;script&gt;alert(1)&lt;/script&gt;</a>`},
		{"footer", footer, `<a href="/s/demo/p/shipping">Shipping</a>`},
		{"side column", aside, `<a href="/s/demo/p/size-guide">Size guide</a>`},
	} {
		if !strings.Contains(tc.part, tc.want) {
			t.Errorf("%s lacks %s\n%s", tc.name, tc.want, tc.part)
		}
	}
	if strings.Count(body, "/p/size-guide") != 1 || strings.Count(body, "/p/shipping") != 1 || strings.Contains(body, "/p/secret") {
		t.Errorf("a page in more than its menu, or a draft shown\n%s", body)
	}
	if strings.Contains(header, "/blog") {
		t.Errorf("a store without posts links a blog\n%s", header)
	}
	res, body := get(t, c, base+"/p/about")
	if res.StatusCode != 200 || !strings.Contains(body, "<p>Hello</p>") || strings.Contains(body, "<script>") ||
		strings.Contains(body, "javascript:") || strings.Contains(body, "onmouseover") || !strings.Contains(res.Header.Get("Cache-Control"), "public") {
		t.Errorf("page %d\n%s", res.StatusCode, body)
	}
	if !strings.Contains(body, `<meta name="description" content="Hello x">`) {
		t.Errorf("page description\n%s", body)
	}
	if res, _ := get(t, c, base+"/p/secret"); res.StatusCode != 404 {
		t.Errorf("a draft page: %d", res.StatusCode)
	}
}

// blogFixture gives the demo store a category and posts: two published (one with a cover), a
// draft, one scheduled for tomorrow, and one of another store of the seller's; names try scripts.
type blogFixture struct {
	news, theirs          int64
	first, second, draft  int64
	scheduled, otherStore int64
	coverKey              string
}

func (f fixture) blog(t *testing.T) blogFixture {
	t.Helper()
	var b blogFixture
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var seller, other, second int64
	must(f.db.Get(&seller, `SELECT owner_id FROM stores WHERE id = $1`, f.storeID))
	must(f.db.Get(&other, `INSERT INTO users (name, email, password_hash, roles) VALUES ('O', 'o@example.com', 'x', '{seller}') RETURNING id`))
	must(f.db.Get(&second, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Second', 'second.example', 'second') RETURNING id`, seller))
	must(f.db.Get(&b.news, `INSERT INTO blog_categories (seller_id, name, slug, description) VALUES ($1, $2, 'news', $3) RETURNING id`,
		seller, "News "+evil, "What is new "+evil))
	must(f.db.Get(&b.theirs, `INSERT INTO blog_categories (seller_id, name, slug) VALUES ($1, 'Theirs', 'theirs') RETURNING id`, other))
	b.coverKey = "u/1/blog/cover.png"
	post := func(store int64, title, slug, status, cover string, at any) int64 {
		var id int64
		must(f.db.Get(&id, `INSERT INTO blog_posts (store_id, title, slug, excerpt, body, cover_key, status, published_at)
			VALUES ($1, $2, $3, '', $4, $5, $6, $7) RETURNING id`, store, title, slug,
			`<h2>Inside</h2><p>Our <strong>new</strong> hoodies &amp; mugs.</p><img src="x" onerror="steal()">`+evil, cover, status, at))
		return id
	}
	now := time.Now()
	b.first = post(f.storeID, "First "+evil, "first", "published", "", now.Add(-2*time.Hour))
	b.second = post(f.storeID, "Second post", "second-post", "published", b.coverKey, now.Add(-time.Hour))
	b.draft = post(f.storeID, "Draft", "draft", "draft", "", nil)
	b.scheduled = post(f.storeID, "Tomorrow", "tomorrow", "published", "", now.Add(24*time.Hour))
	b.otherStore = post(second, "Elsewhere", "elsewhere", "published", "", now.Add(-time.Hour))
	for _, p := range []int64{b.first, b.draft, b.scheduled} {
		_, err := f.db.Exec(`INSERT INTO blog_post_categories (post_id, category_id) VALUES ($1, $2)`, p, b.news)
		must(err)
	}
	_, err := f.db.Exec(`INSERT INTO blog_post_categories (post_id, category_id) VALUES ($1, $2)`, b.second, b.theirs)
	must(err)
	_, err = f.db.Exec(`UPDATE blog_posts SET excerpt = 'Hoodies are back.' WHERE id = $1`, b.second)
	must(err)
	return b
}

// TestBlog: the store's menu links its blog once a post is published; /blog lists the published
// posts newest first (not drafts, not those scheduled, not another store's), with their excerpt or
// the start of their body; a post's page carries its OpenGraph tags and cover; a category lists its
// posts; everything is escaped and sanitized, and the pages are kept like the catalogue's.
func TestBlog(t *testing.T) {
	f := setup(t)
	b := f.blog(t)
	c := client(t)
	base := f.srv.URL + "/s/demo"

	_, body := get(t, c, base+"/")
	if header := body[strings.Index(body, "<header>"):strings.Index(body, "</header>")]; !strings.Contains(header, `<a href="/s/demo/blog">Blog</a>`) {
		t.Errorf("no Blog in the menu\n%s", header)
	}
	res, body := get(t, c, base+"/blog")
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Cache-Control"), "public") {
		t.Fatalf("blog %d\n%s", res.StatusCode, body)
	}
	i, j := strings.Index(body, `href="/s/demo/blog/second-post"`), strings.Index(body, `href="/s/demo/blog/first"`)
	if i < 0 || j < 0 || i > j {
		t.Errorf("not newest first (second at %d, first at %d)\n%s", i, j, body)
	}
	for _, absent := range []string{"/blog/draft", "/blog/tomorrow", "/blog/elsewhere", "/blog/category/theirs", evil, "onerror"} {
		if strings.Contains(body, absent) {
			t.Errorf("blog shows %q\n%s", absent, body)
		}
	}
	for _, want := range []string{"First &lt;script&gt;", "Hoodies are back.", "Inside Our new hoodies &amp; mugs.", `href="/s/demo/blog/category/news"`,
		`<img src="/s/demo/img/post/` + itoa(b.second) + `?v=`} {
		if !strings.Contains(body, want) {
			t.Errorf("blog lacks %q\n%s", want, body)
		}
	}

	res, body = get(t, c, base+"/blog/second-post")
	if res.StatusCode != 200 {
		t.Fatalf("post %d\n%s", res.StatusCode, body)
	}
	og := regexp.MustCompile(`<meta property="og:image" content="http://demo\.localhost(:\d+)?/img/post/` + itoa(b.second) + `\?v=\d+">`)
	for _, want := range []string{`<meta property="og:type" content="article">`, `<link rel="canonical" href="http://demo.localhost`,
		`<meta property="article:published_time" content="`, `<meta property="og:description" content="Hoodies are back.">`,
		`<h2>Inside</h2><p>Our <strong>new</strong> hoodies &amp; mugs.</p><img src="x">`, `class="cover" src="/s/demo/img/post/`} {
		if !strings.Contains(body, want) {
			t.Errorf("post lacks %q\n%s", want, body)
		}
	}
	if !og.MatchString(body) || strings.Contains(body, "<script>alert") || strings.Contains(body, "steal()") {
		t.Errorf("post's image or escaping\n%s", body)
	}
	if _, body := get(t, c, base+"/blog/first"); !strings.Contains(body, `<a href="/s/demo/blog/category/news">News &lt;script&gt;`) {
		t.Errorf("post's categories\n%s", body)
	}
	for _, slug := range []string{"draft", "tomorrow", "elsewhere", "nope"} {
		if res, _ := get(t, c, base+"/blog/"+slug); res.StatusCode != 404 {
			t.Errorf("/blog/%s: %d", slug, res.StatusCode)
		}
	}

	res, body = get(t, c, base+"/blog/category/news")
	if res.StatusCode != 200 || !strings.Contains(body, "What is new &lt;script&gt;") || !strings.Contains(body, "/blog/first") ||
		strings.Contains(body, "/blog/second-post") || strings.Contains(body, "/blog/tomorrow") {
		t.Errorf("category %d\n%s", res.StatusCode, body)
	}
	for _, slug := range []string{"theirs", "nope"} {
		if res, _ := get(t, c, base+"/blog/category/"+slug); res.StatusCode != 404 {
			t.Errorf("/blog/category/%s: %d", slug, res.StatusCode)
		}
	}

	t.Run("cover", func(t *testing.T) {
		ctx := context.Background()
		put := func(key, content string) {
			if err := f.blobs.Put(ctx, key, strings.NewReader(content), int64(len(content)), "application/octet-stream"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.db.Exec(`INSERT INTO uploads (owner_id, blob_key, status, content_type) SELECT owner_id, $2, 'ready', 'image/png' FROM stores WHERE id = $1`,
			f.storeID, b.coverKey); err != nil {
			t.Fatal(err)
		}
		put(b.coverKey, "the upload")
		cover := base + "/img/post/" + itoa(b.second)
		res, body := get(t, c, cover)
		if res.StatusCode != 200 || body != "the upload" || res.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("cover before its size is made: %d %s %q", res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		put(tasks.VariantKey(storesite.CoverVariant, b.coverKey), "the webp")
		res, body = get(t, c, cover)
		if res.StatusCode != 200 || body != "the webp" || res.Header.Get("Content-Type") != "image/webp" || !strings.Contains(res.Header.Get("Cache-Control"), "max-age") {
			t.Fatalf("cover: %d %s %q", res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		if _, err := f.db.Exec(`UPDATE blog_posts SET status = 'draft' WHERE id = $1`, b.second); err != nil {
			t.Fatal(err)
		}
		if res, _ := get(t, c, cover); res.StatusCode != 404 {
			t.Errorf("a draft's cover: %d", res.StatusCode)
		}
		if res, _ := get(t, c, base+"/img/post/"+itoa(b.first)); res.StatusCode != 404 {
			t.Errorf("a post without a cover: %d", res.StatusCode)
		}
	})

	t.Run("sitemap", func(t *testing.T) {
		_, body := get(t, c, base+"/sitemap.xml")
		if !strings.Contains(body, "<sitemapindex") || !strings.Contains(body, "/sitemaps/blog-1.xml</loc>") || !strings.Contains(body, "/sitemaps/pages-1.xml</loc>") {
			t.Fatalf("index\n%s", body)
		}
		_, body = get(t, c, base+"/sitemaps/blog-1.xml")
		for _, want := range []string{"/blog</loc>", "/blog/category/news</loc>", "/blog/first</loc>"} {
			if !strings.Contains(body, want) {
				t.Errorf("blog sitemap lacks %s\n%s", want, body)
			}
		}
		for _, absent := range []string{"/blog/draft", "/blog/tomorrow", "/blog/elsewhere", "theirs"} {
			if strings.Contains(body, absent) {
				t.Errorf("blog sitemap has %s\n%s", absent, body)
			}
		}
		if res, _ := get(t, c, base+"/sitemaps/blog-2.xml"); res.StatusCode != 404 {
			t.Errorf("a file past the section: %d", res.StatusCode)
		}
	})
}

// TestBlogPages: the blog shows PostsPerPage posts a page with links to the next and previous
// ones; a page past the last, or not a number, answers 404.
func TestBlogPages(t *testing.T) {
	f := setup(t)
	if _, err := f.db.Exec(`INSERT INTO blog_posts (store_id, title, slug, body, status, published_at)
		SELECT $1, 'Post ' || n, 'post-' || n, '<p>Body ' || n || '</p>', 'published', now() - n * interval '1 minute'
		FROM generate_series(1, $2) n`, f.storeID, PostsPerPage+1); err != nil {
		t.Fatal(err)
	}
	c := client(t)
	base := f.srv.URL + "/s/demo"
	_, body := get(t, c, base+"/blog")
	if n := strings.Count(body, `href="/s/demo/blog/post-`); n != PostsPerPage || !strings.Contains(body, `<a rel="next" href="/s/demo/blog?page=2">`) ||
		strings.Contains(body, `rel="prev"`) || !strings.Contains(body, "Page 1 of 2") {
		t.Fatalf("first page: %d posts\n%s", n, body)
	}
	_, body = get(t, c, base+"/blog?page=2")
	last := "post-" + itoa(int64(PostsPerPage+1))
	if n := strings.Count(body, `href="/s/demo/blog/post-`); n != 1 || !strings.Contains(body, last) || !strings.Contains(body, `<a rel="prev" href="/s/demo/blog">`) ||
		!strings.Contains(body, `<link rel="canonical" href="http://demo.localhost`) || !strings.Contains(body, `/blog?page=2">`) {
		t.Errorf("second page: %d posts\n%s", n, body)
	}
	for _, page := range []string{"3", "0", "x"} {
		if res, _ := get(t, c, base+"/blog?page="+page); res.StatusCode != 404 {
			t.Errorf("page %s: %d", page, res.StatusCode)
		}
	}
	// Kept like the catalogue's pages: a new post shows once the page cache's time has passed.
	if _, err := f.db.Exec(`UPDATE blog_posts SET title = 'Renamed' WHERE slug = 'post-1'`); err != nil {
		t.Fatal(err)
	}
	if _, body := get(t, c, base+"/blog"); strings.Contains(body, "Renamed") {
		t.Errorf("the blog was not kept for the cache's time")
	}
}
