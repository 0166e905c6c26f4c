import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminMessages } from '../../domain/admin-messages.js';
import { messages } from '../../domain/messages.js';
import { ordersCsv } from '../../domain/orders-csv.js';
import { SITE_NAME } from '../../domain/page-head.js';
import { moveItem, type ProductFormValues, productFormProblems } from '../../domain/product-form.js';
import { AddCategory, categoryNameProblem } from '../../web/admin/Categories.js';
import { ConfirmHost, SignInAgain } from '../../web/admin/dialogs.js';
import { LeaveGuardProvider } from '../../web/admin/leave-guard.js';
import { breadcrumbs, pageTitle } from '../../web/admin/menu.js';
import { AddProduct } from '../../web/admin/ProductForm.js';
import { ADMIN_PATHS } from '../../web/admin/paths.js';
import { adminRoutes } from '../../web/admin/routes.js';
import { AlertsProvider } from '../../web/components/Alerts.js';

/**
 * The admin forms' rules and messages (spec sections 5 and 8), the menu's
 * breadcrumbs and titles, and the admin's own behaviours that need no
 * server: the session that ends mid-edit, and the offline notice.
 */
type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;
let handler: Handler;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

// Node's Request (under jsdom) does not resolve a path against the page as a browser's does.
const NodeRequest = globalThis.Request;
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' && input.startsWith('/') ? new URL(input, location.href) : input, init);
  }
}

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('Request', PageRequest);
  handler = (url) => {
    if (url.pathname === '/api/GetCategories')
      return json({
        isSuccess: true,
        data: [{ categoryID: 1, categoryName: 'Cakes' }],
        sys_message: 'Success',
      });
    return json({ isSuccess: false, data: null, sys_message: 'unexpected' }, 500);
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(String(input), init);
      return handler(new URL(req.url), { method: req.method, body: await req.clone().text() });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});

function renderAdmin(ui: ReactNode, path = '/add-new-category') {
  const element = (
    <AlertsProvider>
      <LeaveGuardProvider>
        <SignInAgain>
          {ui}
          <ConfirmHost />
        </SignInAgain>
      </LeaveGuardProvider>
    </AlertsProvider>
  );
  return render(
    <RouterProvider router={createMemoryRouter([{ path: '*', element }], { initialEntries: [path] })} />,
  );
}

const alertWith = (text: string) =>
  waitFor(() => expect(screen.getByText(text, { selector: '.alerts *' })).toBeTruthy());

const valid: ProductFormValues = {
  categoryIDs: [1],
  title: 'Rose Cake',
  description: '<p>Fresh</p>',
  labelHeading: 'Baked today',
  labelDescription: 'Eggless',
  price: '450',
  sizeOrWeight: '',
  variations: [],
  imageCount: 1,
};

describe('the add and edit product rules (spec 5)', () => {
  it('accepts a complete form and names every missing required field', () => {
    expect(productFormProblems(valid, 'add')).toEqual([]);
    const empty: ProductFormValues = {
      ...valid,
      categoryIDs: [],
      title: ' ',
      description: '',
      labelHeading: '',
      labelDescription: '',
      price: '',
      imageCount: 0,
    };
    expect(productFormProblems(empty, 'add')).toEqual([
      'categoryIDs',
      'title',
      'description',
      'labelHeading',
      'labelDescription',
      'price',
      'images',
    ]);
  });
  it('takes a price of 0 or more in whole rupees, and checks each variation', () => {
    expect(productFormProblems({ ...valid, price: '0' }, 'add')).toEqual([]);
    expect(productFormProblems({ ...valid, price: '-1' }, 'add')).toEqual(['price']);
    expect(productFormProblems({ ...valid, price: '12.5' }, 'add')).toEqual(['price']);
    const variations = [
      { variationName: 'Half kg', variationType: 'Weight', price: '0' },
      { variationName: '', variationType: 'Weight', price: 'x' },
    ];
    expect(productFormProblems({ ...valid, variations }, 'add')).toEqual([
      'variations.1.variationName',
      'variations.1.price',
    ]);
  });
  it('edit requires title, description and price, not the labels or new images', () => {
    expect(
      productFormProblems({ ...valid, labelHeading: '', labelDescription: '', imageCount: 0 }, 'edit'),
    ).toEqual([]);
    expect(productFormProblems({ ...valid, title: '', price: '' }, 'edit')).toEqual(['title', 'price']);
  });
  it('reorders images (the first is the main picture)', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});

describe('the category rule (spec 5)', () => {
  it('asks for a name with the spec text', () => {
    expect(categoryNameProblem('   ')).toBe(messages.categoryNameRequired);
    expect(categoryNameProblem('Cakes')).toBeNull();
  });
});

describe('menu, breadcrumbs and titles', () => {
  it('builds breadcrumbs and "{item} | {suffix}" from the menu, Welcome by default', () => {
    expect(breadcrumbs('/product-list').map((c) => c.title)).toEqual([
      'Dashboard',
      'Catalogue',
      'Product List',
    ]);
    expect(breadcrumbs('/edit-products/7').map((c) => c.title)).toEqual([
      'Dashboard',
      'Catalogue',
      'Product List',
      'Edit Product #7',
    ]);
    expect(pageTitle('/all-admin-orders')).toBe(`All User Orders | ${adminMessages.titleSuffix(SITE_NAME)}`);
    expect(pageTitle('/dashboard')).toBe(`Dashboard | ${adminMessages.titleSuffix(SITE_NAME)}`);
    expect(pageTitle('/somewhere-else')).toBe(`Welcome | ${adminMessages.titleSuffix(SITE_NAME)}`);
  });
  it('registers every admin path, with an id where the screen takes one', () => {
    const paths = adminRoutes.children.map((r) => r.path);
    expect(paths).toEqual(
      ADMIN_PATHS.map((p) => (p === '/edit-products' || p === '/admin-orders' ? `${p}/:id` : p)),
    );
  });
  it('exports orders as CSV for Excel: a BOM, India time, the address in parts, every charge, sizes, the photo link, "Paid online"', () => {
    const order = {
      orderID: 5,
      status: 'placed' as const,
      nextStatuses: ['confirmed' as const, 'cancelled' as const],
      userEmail: 'a@b.test',
      customerName: '=HYPERLINK("x")',
      customerEmail: 'a@b.test',
      customerPhone: '9876543210',
      customerAddress: '12 Rose Lane, "Phase 7"',
      city: 'Mohali',
      state: 'Punjab',
      pincode: '160062',
      subtotal: 1848,
      deliveryCharge: 150,
      discount: 100,
      totalAmount: 2148,
      paymentMethod: 'Cash on Delivery' as const,
      // 7:05 PM in India: the shop's day, whatever the exporting laptop's clock says.
      orderDate: '2026-11-23T13:35:00.000Z',
      deliveryDate: '2026-11-24',
      deliverySlot: { slotID: 6, name: 'Midnight', start: 1380, end: 1440 },
      slotCharge: 250,
      items: [
        {
          productName: 'Chocolate Truffle Delight (Weight: 1 kg)',
          productTitle: 'Chocolate Truffle Delight',
          variationName: 'Weight',
          variationValue: '1 kg',
          unitPrice: 1199,
          quantity: 1,
          productImage: '',
          photoID: null,
        },
        {
          productName: 'Red Roses',
          productTitle: 'Red Roses',
          variationName: null,
          variationValue: '',
          unitPrice: 450,
          quantity: 1,
          productImage: '',
          photoID: null,
        },
        {
          productName: 'Old Cake (size not recorded)',
          productTitle: 'Old Cake',
          variationName: null,
          variationValue: null,
          unitPrice: 199,
          quantity: 1,
          productImage: '',
          photoID: null,
        },
      ],
    };
    const photoID = '0b6b7c1e-2f5a-4d3e-9a61-7c2d5e8f9a10';
    const csv = ordersCsv(
      [
        order,
        // A gift paid online: someone else receives it, no price in the box, a card, a Hindi photo cake.
        {
          ...order,
          orderID: 6,
          orderDate: '2026-01-01T18:30:00.000Z',
          paymentMethod: 'Razorpay' as const,
          refunded: 450,
          couponCode: 'DIWALI10',
          recipient: { name: 'Dadi', phone: '9812345678' },
          hidePrice: true,
          hideSender: true,
          card: { occasion: 'Birthday', message: 'Love,\nus 🎂' },
          items: [
            {
              productName: 'Photo Cake (0.5 kg)',
              productTitle: 'Photo Cake',
              variationName: null,
              variationValue: '0.5 kg',
              unitPrice: 950,
              quantity: 1,
              productImage: '',
              photoID,
              cakeMessage: 'जन्मदिन मुबारक दादी',
            },
          ],
        },
      ],
      { origin: 'https://shop.example' },
    );
    // Excel reads UTF-8 (₹, Hindi, emoji) only behind a byte order mark.
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect([...new TextEncoder().encode(csv).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, row, gift] = csv.slice(1).trim().split('\r\n');
    // Every cell quoted (RFC 4180), so a spreadsheet splitting on ";" or a tab keeps each one whole.
    expect(header).toBe(
      '"Order ID","Status","Order Date (India time)","User Email","Customer Name","Customer Email","Customer Phone",' +
        '"Customer Address","City","State","PIN","Products","Quantity","Payment","Subtotal (INR)","Delivery Charge (INR)",' +
        '"Slot Charge (INR)","Coupon","Discount (INR)","Total Amount (INR)","Refunded (INR)","Delivery Date","Delivery Slot",' +
        '"Recipient Name","Recipient Phone","Hide Price","Hide Sender","Card Occasion","Card Message","Cake Messages","Cake Photo"',
    );
    expect(row).toBe(
      `"5","placed","2026-11-23 19:05","a@b.test","'=HYPERLINK(""x"")","a@b.test","9876543210","12 Rose Lane, ""Phase 7""",` +
        '"Mohali","Punjab","160062",' +
        '"1 x Chocolate Truffle Delight, 1 kg; 1 x Red Roses; 1 x Old Cake, size not recorded","3",' +
        '"Cash on Delivery","1848","150","250","","100","2148","0","2026-11-24","Midnight (11 PM – 12 AM)","","","no","no","","","",""',
    );
    expect(gift).toBe(
      '"6","placed","2026-01-02 00:00","a@b.test","\'=HYPERLINK(""x"")","a@b.test","9876543210","12 Rose Lane, ""Phase 7""",' +
        '"Mohali","Punjab","160062","1 x Photo Cake, 0.5 kg","1","Paid online","1848","150","250","DIWALI10","100","2148","450","2026-11-24",' +
        '"Midnight (11 PM – 12 AM)","Dadi","9812345678","yes","yes","Birthday","Love,\nus 🎂","Photo Cake (0.5 kg): जन्मदिन मुबारक दादी",' +
        '"https://shop.example/admin-orders/6#cake-photo"',
    );
  });
});

describe('Add category (spec messages)', () => {
  it('says "Please enter a category name." for an empty name and adds a good one', async () => {
    let added = '';
    handler = (url, init) => {
      if (url.pathname === '/api/AddCategory') {
        added = JSON.parse(String(init.body)).CategoryName;
        return json(
          {
            isSuccess: true,
            data: { categoryID: 2, categoryName: added },
            sys_message: messages.categoryAdded,
          },
          201,
        );
      }
      return json({
        isSuccess: true,
        data: [{ categoryID: 1, categoryName: 'Cakes' }],
        sys_message: 'Success',
      });
    };
    renderAdmin(<AddCategory />);
    fireEvent.click(screen.getByRole('button', { name: 'Add Category' }));
    await alertWith(messages.categoryNameRequired);
    expect(screen.getByLabelText('Category name').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(screen.getByLabelText('Category name'), { target: { value: '  Tea Cakes ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Category' }));
    await alertWith(messages.categoryAdded);
    expect(added).toBe('Tea Cakes');
    expect((screen.getByLabelText('Category name') as HTMLInputElement).value).toBe('');
  });
  it('says "Error: {sys_message}" on a refusal and "Something went wrong." on a network failure', async () => {
    handler = (url) =>
      url.pathname === '/api/AddCategory'
        ? json({ isSuccess: false, data: null, sys_message: 'A category named "Cakes" already exists.' }, 409)
        : json({ isSuccess: true, data: [], sys_message: 'Success' });
    renderAdmin(<AddCategory />);
    await screen.findByText('No categories found');
    fireEvent.change(screen.getByLabelText('Category name'), { target: { value: 'Cakes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Category' }));
    await alertWith('Error: A category named "Cakes" already exists.');
    handler = () => {
      throw new TypeError('Failed to fetch');
    };
    fireEvent.click(screen.getByRole('button', { name: 'Add Category' }));
    await alertWith(messages.somethingWentWrongDot);
  });
  it('asks to sign in again on a 401 and then saves, keeping what was typed', async () => {
    let calls = 0;
    handler = (url, init) => {
      if (url.pathname === '/api/AddCategory') {
        calls++;
        return calls === 1
          ? json({ isSuccess: false, data: null, sys_message: 'Please log in again.' }, 401)
          : json({
              isSuccess: true,
              data: { categoryID: 3, categoryName: 'Tea' },
              sys_message: messages.categoryAdded,
            });
      }
      if (url.pathname === '/api/LoginCustomer') {
        expect(JSON.parse(String(init.body))).toEqual({
          email: 'owner@example.test',
          password: 'Secret-Pass1!',
        });
        const token = `x.${btoa(JSON.stringify({ role: '1', exp: Math.floor(Date.now() / 1000) + 3600 }))}.y`;
        return json({
          isSuccess: true,
          data: { token, role: '1', veryOtpLoginID: 1, email: 'owner@example.test', phone: '9876543210' },
          sys_message: 'Logged in successfully.',
        });
      }
      return json({ isSuccess: true, data: [], sys_message: 'Success' });
    };
    renderAdmin(<AddCategory />);
    fireEvent.change(screen.getByLabelText('Category name'), { target: { value: 'Tea' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Category' }));
    await screen.findByText(adminMessages.sessionEnded);
    expect((screen.getByLabelText('Category name') as HTMLInputElement).value).toBe('Tea');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'owner@example.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret-Pass1!' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: adminMessages.signInAgain }));
    });
    await alertWith(messages.categoryAdded);
    expect(calls).toBe(2);
    expect(localStorage.getItem('role')).toBe('1');
  });
  it('offline, says the screen needs a connection instead of showing the form', () => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    renderAdmin(<AddCategory />);
    expect(screen.getByText(adminMessages.needsConnection)).toBeTruthy();
    expect(screen.queryByLabelText('Category name')).toBeNull();
  });
});

describe('Add product (spec messages)', () => {
  it('says "Please fill all required fields and select an image." and marks the fields', async () => {
    renderAdmin(<AddProduct />, '/add-product');
    await screen.findByLabelText('Cakes');
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    await alertWith(messages.productFieldsRequired);
    expect(screen.getByLabelText(/^Title/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText(/^Price/).getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Add an option' }));
    expect(screen.getByLabelText('Option name')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove option 1' }));
    expect(screen.queryByLabelText('Option name')).toBeNull();
  });
  it("names the fields in the owner's words, each saying where the shopper sees it, with an example", async () => {
    renderAdmin(<AddProduct />, '/add-product');
    await screen.findByLabelText('Cakes');
    fireEvent.click(screen.getByRole('button', { name: 'Add an option' }));
    const form = document.querySelector('form') as HTMLFormElement;
    // The API's names are for programs: none is a label the owner reads.
    for (const apiName of ['VariationName', 'VariationType', 'Label Heading', 'Label Description'])
      expect(form.textContent).not.toContain(apiName);
    const described = (label: string) => {
      const input = screen.getByLabelText(new RegExp(`^${label}`));
      const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
      return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    };
    expect(described('Highlight heading')).toMatch(/product page.*Example: "/);
    expect(described('Highlight text')).toMatch(/product page.*Example: "/);
    expect(described('Option name')).toMatch(/Example: "Weight"/);
    expect(described('Option value')).toMatch(/product page.*Example: "1 kg"/);
    expect(screen.getByLabelText('Price of this option (₹)')).toBeTruthy();
  });
  it('shows the description sanitized in the preview', async () => {
    renderAdmin(<AddProduct />, '/add-product');
    fireEvent.change(screen.getByLabelText(/^Description/), {
      target: {
        value:
          '<p style="color:red">Soft <em>sponge</em></p><img src=x onerror="alert(1)"><script>alert(2)</script>',
      },
    });
    await waitFor(() =>
      expect(document.querySelector('.admin-preview__body em')?.textContent).toBe('sponge'),
    );
    expect(document.querySelector('.admin-preview__body script')).toBeNull();
    expect(document.querySelector('.admin-preview__body [onerror]')).toBeNull();
    // The server keeps no style attribute, and the page's Content-Security-Policy would refuse one.
    expect(document.querySelector('.admin-preview__body [style]')).toBeNull();
  });
});
