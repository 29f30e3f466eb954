from load import read_products
from report import out_of_stock, total_value


def main(path="products.csv"):
    products = read_products(path)
    print(f"{len(products)} products, stock worth {total_value(products):.2f}")
    missing = out_of_stock(products)
    if missing:
        print("out of stock: " + ", ".join(missing))


if __name__ == "__main__":
    main()
