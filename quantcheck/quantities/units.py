"""The unit table: every unit the extractor knows, its category and its exact conversion.

A value ``v`` written in a unit becomes ``(v + shift) * numerator / denominator`` in the
category's base unit. Keeping numerator and denominator apart lets a conversion such as
°F -> °C stay exact where it can and report itself as inexact where it cannot.

Aliases are matched case-insensitively unless listed in ``exact_aliases``: short symbols
such as ``s``, ``m``, ``K``, ``B``, ``W`` or ``mW`` change meaning with their case.
``spaced`` aliases only count after whitespace, so "10K" is not read as ten kelvin.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Context, Decimal, Inexact

from quantcheck.quantities.facts import CONTEXT


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit: where it converts to and how it may be written."""

    name: str
    category: str
    aliases: tuple[str, ...] = ()
    exact_aliases: tuple[str, ...] = ()
    numerator: Decimal = Decimal(1)
    denominator: Decimal = Decimal(1)
    shift: Decimal = Decimal(0)
    spaced: bool = False


def _u(
    name: str,
    category: str,
    factor: str | int = 1,
    *,
    aliases: tuple[str, ...] = (),
    exact: tuple[str, ...] = (),
    over: str | int = 1,
    shift: str | int = 0,
    spaced: bool = False,
) -> Unit:
    return Unit(
        name=name,
        category=category,
        aliases=aliases,
        exact_aliases=exact,
        numerator=Decimal(factor),
        denominator=Decimal(over),
        shift=Decimal(shift),
        spaced=spaced,
    )


# The US gallon is defined as exactly 231 cubic inches = 3.785411784 litres.
_GALLON = "3.785411784"
# One pound-force per square inch in kPa: 4.4482216152605 N / 0.00064516 m², / 1000.
_PSI_N = "4.4482216152605"
_PSI_D = "0.64516"

# fmt: off
UNITS: tuple[Unit, ...] = (
    # time, in seconds; months and years are calendar units and never become seconds
    _u("nanosecond", "time_seconds", "0.000000001",
       aliases=("nanoseconds", "nanosecond"), exact=("ns",)),
    # NFKC reads the micro sign as the Greek letter mu, so "µs" arrives as "μs"
    _u("microsecond", "time_seconds", "0.000001",
       aliases=("microseconds", "microsecond", "μs", "usec", "usecs")),
    _u("millisecond", "time_seconds", "0.001",
       aliases=("milliseconds", "millisecond", "msecs", "msec"), exact=("ms",)),
    _u("second", "time_seconds", aliases=("seconds", "second", "secs", "sec"), exact=("s",)),
    _u("minute", "time_seconds", 60, aliases=("minutes", "minute", "mins", "min")),
    _u("hour", "time_seconds", 3600, aliases=("hours", "hour", "hrs", "hr"), exact=("h",)),
    _u("day", "time_seconds", 86400, aliases=("days", "day", "day-old", "days-old", "days old")),
    _u("week", "time_seconds", 604800,
       aliases=("weeks", "week", "wks", "wk", "week-old", "weeks-old", "weeks old")),
    _u("month", "time_months", aliases=("months", "month", "month-old", "months-old",
                                        "month-olds", "months old", "month old")),
    # "a 31-year-old", "25 years old", "aged 40 years": an age is a duration in years
    _u("year", "time_months", 12,
       aliases=("years", "year", "yrs", "yr", "year-old", "years-old", "year-olds",
                "years old", "year old")),
    # percentages; percentage points are a difference of percentages, not a percentage
    _u("percent", "percent", aliases=("%", "percent", "per cent", "pct")),
    _u("percentage point", "percentage_points",
       aliases=("percentage points", "percentage point", "pp")),
    _u("basis point", "percentage_points", "0.01",
       aliases=("basis points", "basis point", "bps", "bp")),
    # multiples: "3x", "three times", "a 2-fold rise"
    _u("times", "multiple", aliases=("times", "fold", "×"), exact=("x",)),
    # temperature, in degrees Celsius
    _u("degree Celsius", "temperature_c",
       aliases=("°C", "° C", "degrees Celsius", "degree Celsius", "degrees C", "degree C",
                "deg C", "deg Celsius", "degC", "celsius", "centigrade")),
    _u("degree Fahrenheit", "temperature_c", 5, over=9, shift=-32,
       aliases=("°F", "° F", "degrees Fahrenheit", "degree Fahrenheit", "degrees F",
                "degree F", "deg F", "deg Fahrenheit", "degF", "fahrenheit")),
    # "26 C (78 F)": the letter alone, after a space, as lab sheets and recipes write it
    _u("degree Celsius", "temperature_c", exact=("C",), spaced=True),
    _u("degree Fahrenheit", "temperature_c", 5, over=9, shift=-32, exact=("F",), spaced=True),
    _u("kelvin", "temperature_c", shift="-273.15", aliases=("kelvins", "kelvin")),
    _u("kelvin", "temperature_c", shift="-273.15", exact=("K",), spaced=True),
    # flow, in litres per minute
    _u("litre per minute", "flow_l_per_min",
       aliases=("L/min", "liters per minute", "litres per minute", "liter per minute",
                "litre per minute", "lpm")),
    _u("litre per hour", "flow_l_per_min", 1, over=60,
       aliases=("L/h", "L/hr", "liters per hour", "litres per hour", "liter per hour",
                "litre per hour")),
    _u("litre per second", "flow_l_per_min", 60,
       aliases=("L/s", "L/sec", "liters per second", "litres per second", "liter per second",
                "litre per second")),
    _u("millilitre per minute", "flow_l_per_min", "0.001",
       aliases=("mL/min", "milliliters per minute", "millilitres per minute")),
    _u("US gallon per minute", "flow_l_per_min", _GALLON,
       aliases=("gpm", "gal/min", "gallons per minute", "gallon per minute",
                "US gallons per minute", "US gallon per minute")),
    # mass per volume of air, in micrograms per cubic metre (air quality); NFKC writes
    # "µg/m³" as "μg/m3"
    _u("microgram per cubic metre", "concentration_ug_per_m3",
       aliases=("μg/m3", "ug/m3", "mcg/m3", "ugm3", "micrograms per cubic metre",
                "micrograms per cubic meter", "microgram per cubic metre",
                "microgram per cubic meter")),
    _u("milligram per cubic metre", "concentration_ug_per_m3", 1000,
       aliases=("mg/m3", "milligrams per cubic metre", "milligrams per cubic meter")),
    # data size, in megabytes: decimal prefixes multiply by 1000, binary ones by 1024;
    # "512Mi" and "1Gi" are how container limits write the binary ones
    _u("byte", "size_mb", "0.000001", aliases=("bytes", "byte"), exact=("B",)),
    _u("kilobyte", "size_mb", "0.001", aliases=("KB", "kilobytes", "kilobyte")),
    _u("megabyte", "size_mb", aliases=("MB", "megabytes", "megabyte")),
    _u("gigabyte", "size_mb", 1000, aliases=("GB", "gigabytes", "gigabyte")),
    _u("terabyte", "size_mb", 1000000, aliases=("TB", "terabytes", "terabyte")),
    _u("kibibyte", "size_mb", "0.001024", aliases=("KiB", "kibibytes", "kibibyte"), exact=("Ki",)),
    _u("mebibyte", "size_mb", "1.048576", aliases=("MiB", "mebibytes", "mebibyte"), exact=("Mi",)),
    _u("gibibyte", "size_mb", "1073.741824", aliases=("GiB", "gibibytes", "gibibyte"),
       exact=("Gi",)),
    _u("tebibyte", "size_mb", "1099511.627776", aliases=("TiB", "tebibytes", "tebibyte"),
       exact=("Ti",)),
    # data rates, in bits per second: "Mb/s" and "Mbps" are bits, "MB/s" and "MBps" bytes,
    # so the short symbols keep their case; a byte is 8 bits. "bps" alone is basis points.
    _u("bit per second", "data_rate_bps", aliases=("bit/s", "bits per second", "bit per second")),
    _u("kilobit per second", "data_rate_bps", 1000,
       aliases=("kbit/s", "kilobits per second", "kilobit per second"),
       exact=("kbps", "Kbps", "kb/s", "Kb/s")),
    _u("megabit per second", "data_rate_bps", 1000000,
       aliases=("Mbit/s", "megabits per second", "megabit per second"),
       exact=("Mbps", "mbps", "Mb/s")),
    _u("gigabit per second", "data_rate_bps", 1000000000,
       aliases=("Gbit/s", "gigabits per second", "gigabit per second"),
       exact=("Gbps", "gbps", "Gb/s")),
    _u("terabit per second", "data_rate_bps", 1000000000000,
       aliases=("Tbit/s", "terabits per second", "terabit per second"), exact=("Tbps", "Tb/s")),
    _u("kilobyte per second", "data_rate_bps", 8000,
       aliases=("kilobytes per second", "kilobyte per second"), exact=("kB/s", "KB/s", "KBps")),
    _u("megabyte per second", "data_rate_bps", 8000000,
       aliases=("megabytes per second", "megabyte per second"), exact=("MB/s", "MBps")),
    _u("gigabyte per second", "data_rate_bps", 8000000000,
       aliases=("gigabytes per second", "gigabyte per second"), exact=("GB/s", "GBps")),
    _u("terabyte per second", "data_rate_bps", 8000000000000,
       aliases=("terabytes per second", "terabyte per second"), exact=("TB/s", "TBps")),
    _u("mebibyte per second", "data_rate_bps", 8388608, exact=("MiB/s",)),
    _u("gibibyte per second", "data_rate_bps", 8589934592, exact=("GiB/s",)),
    # length, in metres
    _u("millimetre", "length_m", "0.001",
       aliases=("mm", "millimeters", "millimetres", "millimeter", "millimetre")),
    _u("centimetre", "length_m", "0.01",
       aliases=("cm", "centimeters", "centimetres", "centimeter", "centimetre")),
    _u("metre", "length_m", aliases=("meters", "metres", "meter", "metre"), exact=("m",)),
    _u("kilometre", "length_m", 1000,
       aliases=("km", "kilometers", "kilometres", "kilometer", "kilometre")),
    _u("inch", "length_m", "0.0254", aliases=("inches", "inch")),
    _u("foot", "length_m", "0.3048", aliases=("ft", "feet", "foot")),
    _u("yard", "length_m", "0.9144", aliases=("yd", "yards", "yard")),
    _u("mile", "length_m", "1609.344",
       aliases=("miles", "mile", "statute miles", "statute mile"), exact=("mi",)),
    # the international nautical mile is exactly 1852 m
    _u("nautical mile", "length_m", 1852, aliases=("nautical miles", "nautical mile", "nmi")),
    # both exact by definition (IAU 2012; a Julian year of light); the parsec is not a
    # decimal number of metres and is left out
    _u("astronomical unit", "length_m", 149597870700,
       aliases=("astronomical units", "astronomical unit"), exact=("AU",)),
    _u("light-year", "length_m", 9460730472580800,
       aliases=("light-years", "light-year", "light years", "light year"), exact=("ly",)),
    # mass, in kilograms
    # NFKC reads the micro sign as mu: "µg" arrives as "μg"; "mcg" is how labels write it
    _u("microgram", "mass_kg", "0.000000001",
       aliases=("μg", "mcg", "micrograms", "microgram", "microgrammes")),
    _u("milligram", "mass_kg", "0.000001", aliases=("mg", "milligrams", "milligram")),
    _u("gram", "mass_kg", "0.001", aliases=("grams", "gram"), exact=("g",)),
    _u("kilogram", "mass_kg", aliases=("kg", "kilograms", "kilogram")),
    _u("tonne", "mass_kg", 1000, aliases=("tonnes", "tonne", "metric tons", "metric ton"),
       exact=("t",)),
    # "kt" is left out: aviation writes knots that way as often as emissions kilotonnes
    _u("kilotonne", "mass_kg", 1000000, aliases=("kilotonnes", "kilotonne")),
    # "MMT": million metric tons, as emissions inventories write them.
    _u("megatonne", "mass_kg", 1000000000, aliases=("megatonnes", "megatonne"),
       exact=("Mt", "MMT")),
    _u("gigatonne", "mass_kg", 1000000000000, aliases=("gigatonnes", "gigatonne"),
       exact=("Gt",)),
    # "pounds" is also money: read as a weight only where its line speaks of weight
    # (extract.CONTEXT_UNITS)
    _u("pound", "mass_kg", "0.45359237", aliases=("lbs", "lb", "pounds", "pound")),
    _u("ounce", "mass_kg", "0.028349523125", aliases=("oz", "ounces", "ounce")),
    # volume, in litres
    _u("microlitre", "volume_l", "0.000001",
       aliases=("μL", "microliters", "microlitres", "microliter", "microlitre")),
    _u("millilitre", "volume_l", "0.001",
       aliases=("mL", "milliliters", "millilitres", "milliliter", "millilitre")),
    _u("litre", "volume_l", aliases=("liters", "litres", "liter", "litre"), exact=("L", "l")),
    _u("US gallon", "volume_l", _GALLON, aliases=("gallons", "gallon", "gal")),
    # US customary kitchen measures, each an exact fraction of the gallon: a cup is 1/16
    # of it, a fluid ounce 1/128, a tablespoon 1/256 and a teaspoon 1/768
    _u("US cup", "volume_l", "0.2365882365", aliases=("cups", "cup")),
    _u("US fluid ounce", "volume_l", "0.0295735295625",
       aliases=("fl oz", "fl. oz.", "fl. oz", "fluid ounces", "fluid ounce")),
    _u("tablespoon", "volume_l", "0.01478676478125",
       aliases=("tbsp", "tbsps", "tbs", "tablespoons", "tablespoon")),
    _u("teaspoon", "volume_l", "0.00492892159375",
       aliases=("tsp", "tsps", "teaspoons", "teaspoon")),
    # a cubic foot is exactly 0.3048³ m³; text is read in NFKC form, where "ft³" is "ft3"
    _u("cubic foot", "volume_l", "28.316846592",
       aliases=("cubic feet", "cubic foot", "cu ft", "cu. ft.", "cu. ft", "ft3")),
    _u("cubic metre", "volume_l", 1000,
       aliases=("cubic meters", "cubic metres", "cubic meter", "cubic metre"), exact=("m3",)),
    # pressure, in kilopascals
    _u("pascal", "pressure_kpa", "0.001", aliases=("pascals", "pascal"), exact=("Pa",)),
    _u("hectopascal", "pressure_kpa", "0.1", aliases=("hPa", "hectopascals", "hectopascal")),
    _u("kilopascal", "pressure_kpa", aliases=("kPa", "kilopascals", "kilopascal")),
    _u("megapascal", "pressure_kpa", 1000, aliases=("megapascals", "megapascal"),
       exact=("MPa",)),
    _u("bar", "pressure_kpa", 100, aliases=("bar",)),
    _u("millibar", "pressure_kpa", "0.1", aliases=("mbar", "millibars", "millibar")),
    _u("psi", "pressure_kpa", _PSI_N, over=_PSI_D, aliases=("psi",)),
    # torque, in newton-metres; a pound-foot is 0.45359237 kg × 9.80665 m/s² × 0.3048 m
    _u("newton-metre", "torque_nm",
       aliases=("N·m", "N*m", "N-m", "newton-metres", "newton-meters", "newton metres",
                "newton meters"), exact=("Nm",)),
    _u("pound-foot", "torque_nm", "1.3558179483314004",
       aliases=("lb-ft", "lb·ft", "lb ft", "lbf·ft", "ft-lb", "ft·lb", "ft-lbs", "foot-pounds",
                "pound-feet", "pound-foot")),
    # electrical quantities
    _u("volt", "voltage_v", aliases=("volts", "volt"), exact=("V",)),
    _u("millivolt", "voltage_v", "0.001", aliases=("millivolts", "millivolt"), exact=("mV",)),
    _u("kilovolt", "voltage_v", 1000, aliases=("kilovolts", "kilovolt"), exact=("kV",)),
    _u("ampere", "current_a", aliases=("amperes", "ampere", "amps", "amp"), exact=("A",)),
    _u("milliampere", "current_a", "0.001", aliases=("milliamperes", "milliamps"),
       exact=("mA",)),
    _u("watt", "power_w", aliases=("watts", "watt"), exact=("W",)),
    _u("milliwatt", "power_w", "0.001", aliases=("milliwatts", "milliwatt"), exact=("mW",)),
    _u("kilowatt", "power_w", 1000, aliases=("kilowatts", "kilowatt"), exact=("kW",)),
    _u("megawatt", "power_w", 1000000, aliases=("megawatts", "megawatt"), exact=("MW",)),
    _u("gigawatt", "power_w", 1000000000, aliases=("gigawatts", "gigawatt"), exact=("GW",)),
    _u("terawatt", "power_w", 1000000000000, aliases=("terawatts", "terawatt"), exact=("TW",)),
    _u("watt-hour", "energy_wh", aliases=("watt-hours", "watt-hour", "watt hours"),
       exact=("Wh",)),
    _u("kilowatt-hour", "energy_wh", 1000,
       aliases=("kilowatt-hours", "kilowatt-hour", "kilowatt hours"), exact=("kWh",)),
    _u("megawatt-hour", "energy_wh", 1000000,
       aliases=("megawatt-hours", "megawatt-hour", "megawatt hours"), exact=("MWh",)),
    _u("gigawatt-hour", "energy_wh", 1000000000,
       aliases=("gigawatt-hours", "gigawatt-hour", "gigawatt hours"), exact=("GWh",)),
    _u("terawatt-hour", "energy_wh", 1000000000000,
       aliases=("terawatt-hours", "terawatt-hour", "terawatt hours"), exact=("TWh",)),
    # joules, a category of their own: a joule is 1/3600 Wh, and an inexact conversion
    # is kept to 1e-9 of the base unit, which would make the small energies of physics
    # (3e-19 J, 5e-19 J) one value
    _u("joule", "energy_j", aliases=("joules", "joule"), exact=("J",)),
    _u("kilojoule", "energy_j", 1000, aliases=("kilojoules", "kilojoule"), exact=("kJ",)),
    _u("megajoule", "energy_j", 1000000, aliases=("megajoules", "megajoule"), exact=("MJ",)),
    _u("gigajoule", "energy_j", 1000000000, aliases=("gigajoules", "gigajoule"),
       exact=("GJ",)),
    _u("terajoule", "energy_j", 1000000000000, aliases=("terajoules", "terajoule"),
       exact=("TJ",)),
    _u("hertz", "frequency_hz", aliases=("Hz", "hertz")),
    _u("kilohertz", "frequency_hz", 1000, aliases=("kHz", "kilohertz")),
    _u("megahertz", "frequency_hz", 1000000, aliases=("MHz", "megahertz")),
    _u("gigahertz", "frequency_hz", 1000000000, aliases=("GHz", "gigahertz")),
    # speed, in metres per second
    _u("metre per second", "speed_m_per_s",
       aliases=("m/s", "meters per second", "metres per second")),
    _u("kilometre per hour", "speed_m_per_s", 1000, over=3600,
       aliases=("km/h", "km/hr", "kph", "kmh", "kmph", "kilometers per hour",
                "kilometres per hour", "kilometers an hour", "kilometres an hour",
                "km per hour", "km an hour")),
    _u("mile per hour", "speed_m_per_s", "0.44704",
       aliases=("mph", "miles per hour", "mile per hour", "miles an hour", "mile an hour")),
    # fuel economy, in kilometres per litre; a mile is exactly 1.609344 km
    _u("kilometre per litre", "fuel_economy_km_per_l",
       aliases=("km/L", "kmpl", "kilometres per litre", "kilometers per liter",
                "km per litre", "km per liter")),
    _u("mile per US gallon", "fuel_economy_km_per_l", "1.609344", over=_GALLON,
       aliases=("mpg", "miles per gallon", "mile per gallon")),
    # a knot is one nautical mile (1852 m) an hour
    _u("knot", "speed_m_per_s", 1852, over=3600, aliases=("knots", "knot", "kts", "kn")),
    # money, per currency: amounts in different currencies are never converted
    _u("US dollar", "money_usd",
       aliases=("US dollars", "dollars", "dollar", "USD")),
    _u("US cent", "money_usd", "0.01", aliases=("cents", "cent")),
    _u("euro", "money_eur", aliases=("euros", "euro", "EUR")),
    _u("pound sterling", "money_gbp", aliases=("pounds sterling", "GBP")),
    _u("Japanese yen", "money_jpy", aliases=("Japanese yen", "yen", "JPY")),
    _u("Indian rupee", "money_inr", aliases=("rupees", "rupee", "INR")),
    _u("Australian dollar", "money_aud", aliases=("Australian dollars", "AUD")),
    _u("Canadian dollar", "money_cad", aliases=("Canadian dollars", "CAD")),
    # "francs" alone: the Swiss franc is the one most text speaks of.
    _u("Swiss franc", "money_chf",
       aliases=("Swiss francs", "Swiss franc", "francs", "franc", "CHF")),
    _u("Polish zloty", "money_pln",
       aliases=("Polish zloty", "Polish zlotys", "zloty", "zlotys", "złoty", "złotys", "PLN")),
    _u("Swedish krona", "money_sek", aliases=("Swedish kronor", "Swedish krona", "SEK")),
    _u("Norwegian krone", "money_nok", aliases=("Norwegian kroner", "Norwegian krone", "NOK")),
    _u("Danish krone", "money_dkk", aliases=("Danish kroner", "Danish krone", "DKK")),
    _u("Chinese yuan", "money_cny", aliases=("Chinese yuan", "yuan", "renminbi", "RMB", "CNY")),
    _u("South Korean won", "money_krw", aliases=("Korean won", "KRW")),
    _u("New Zealand dollar", "money_nzd", aliases=("New Zealand dollars", "NZD")),
    _u("Singapore dollar", "money_sgd", aliases=("Singapore dollars", "SGD")),
    _u("Hong Kong dollar", "money_hkd", aliases=("Hong Kong dollars", "HKD")),
    _u("Mexican peso", "money_mxn", aliases=("Mexican pesos", "MXN")),
    _u("Brazilian real", "money_brl", aliases=("Brazilian reais", "BRL")),
    _u("South African rand", "money_zar", aliases=("rand", "ZAR")),
    # area, in square metres
    _u("square metre", "area_m2",
       aliases=("m²", "sq m", "sqm", "square metres", "square meters", "square metre",
                "square meter"), exact=("m2",)),
    _u("square kilometre", "area_m2", 1000000,
       aliases=("km²", "km2", "sq km", "square kilometres", "square kilometers",
                "square kilometre", "square kilometer")),
    _u("square foot", "area_m2", "0.09290304",
       aliases=("ft²", "ft2", "sq ft", "sq. ft.", "sq. ft", "sqft", "square feet", "square foot")),
    _u("square mile", "area_m2", "2589988.110336",
       aliases=("sq mi", "square miles", "square mile")),
    _u("hectare", "area_m2", 10000, aliases=("ha", "hectares", "hectare")),
    _u("acre", "area_m2", "4046.8564224", aliases=("acres", "acre")),
)
# fmt: on

# Currency symbols and codes written before the amount ("$4.2 million", "EUR 300").
CURRENCY_PREFIXES: dict[str, str] = {
    "US$": "money_usd",
    "$": "money_usd",
    "USD": "money_usd",
    "€": "money_eur",
    "EUR": "money_eur",
    "£": "money_gbp",
    "GBP": "money_gbp",
    "¥": "money_jpy",
    "JPY": "money_jpy",
    "₹": "money_inr",
    "INR": "money_inr",
    "A$": "money_aud",
    "AU$": "money_aud",
    "AUD": "money_aud",
    "C$": "money_cad",
    "CA$": "money_cad",
    "CAD": "money_cad",
    "CHF": "money_chf",
    "PLN": "money_pln",
    "zł": "money_pln",
    "SEK": "money_sek",
    "NOK": "money_nok",
    "DKK": "money_dkk",
    "CNY": "money_cny",
    "RMB": "money_cny",
    "KRW": "money_krw",
    "₩": "money_krw",
    "NZD": "money_nzd",
    "NZ$": "money_nzd",
    "SGD": "money_sgd",
    "S$": "money_sgd",
    "HKD": "money_hkd",
    "HK$": "money_hkd",
    "MXN": "money_mxn",
    "BRL": "money_brl",
    "R$": "money_brl",
    "ZAR": "money_zar",
}

# Scale words multiply any number; the short forms only follow a currency amount.
SCALE_WORDS: dict[str, Decimal] = {
    "thousand": Decimal(1000),
    "million": Decimal(1000000),
    "billion": Decimal(1000000000),
    "trillion": Decimal(1000000000000),
}
# Scale letters glued to digits outside money: "1.1M users", "50k", "2bn". A lone "m" or
# "B" is a unit (metres, bytes) unless a counted noun follows ("10m users").
SCALE_LETTERS: dict[str, Decimal] = {
    "k": Decimal(1000),
    "K": Decimal(1000),
    "M": Decimal(1000000),
    "MM": Decimal(1000000),
    "mn": Decimal(1000000),
    "bn": Decimal(1000000000),
    "Bn": Decimal(1000000000),
}
# Unit symbols that read as scales when a counted noun follows them: "10m users".
SCALE_LOOKALIKES: dict[str, Decimal] = {"m": Decimal(1000000), "B": Decimal(1000000000)}
CURRENCY_SCALES: dict[str, Decimal] = {
    "k": Decimal(1000),
    "m": Decimal(1000000),
    "mn": Decimal(1000000),
    "bn": Decimal(1000000000),
    "b": Decimal(1000000000),
}

BASE_UNITS: dict[str, str] = {
    "time_seconds": "s",
    "time_months": "month",
    "percent": "%",
    "percentage_points": "pp",
    "temperature_c": "°C",
    "flow_l_per_min": "L/min",
    "concentration_ug_per_m3": "μg/m3",
    "size_mb": "MB",
    "data_rate_bps": "bit/s",
    "length_m": "m",
    "mass_kg": "kg",
    "volume_l": "L",
    "pressure_kpa": "kPa",
    "voltage_v": "V",
    "current_a": "A",
    "power_w": "W",
    "torque_nm": "N·m",
    "energy_wh": "Wh",
    "energy_j": "J",
    "frequency_hz": "Hz",
    "speed_m_per_s": "m/s",
    "fuel_economy_km_per_l": "km/L",
    "money_usd": "USD",
    "money_eur": "EUR",
    "money_gbp": "GBP",
    "money_jpy": "JPY",
    "money_inr": "INR",
    "money_aud": "AUD",
    "money_cad": "CAD",
    "money_chf": "CHF",
    "money_pln": "PLN",
    "money_sek": "SEK",
    "money_nok": "NOK",
    "money_dkk": "DKK",
    "money_cny": "CNY",
    "money_krw": "KRW",
    "money_nzd": "NZD",
    "money_sgd": "SGD",
    "money_hkd": "HKD",
    "money_mxn": "MXN",
    "money_brl": "BRL",
    "money_zar": "ZAR",
    "area_m2": "m²",
    "multiple": "x",
}


def _index() -> tuple[dict[str, Unit], dict[str, Unit]]:
    folded: dict[str, Unit] = {}
    exact: dict[str, Unit] = {}
    for unit in UNITS:
        for alias in unit.aliases:
            key = " ".join(alias.split()).casefold()
            if key in folded and folded[key] is not unit:
                raise ValueError(f"unit alias {alias!r} is listed twice")
            folded[key] = unit
        for alias in unit.exact_aliases:
            if alias in exact:
                raise ValueError(f"unit alias {alias!r} is listed twice")
            exact[alias] = unit
    return folded, exact


FOLDED_ALIASES, EXACT_ALIASES = _index()


def lookup(alias_text: str) -> Unit | None:
    """The unit a matched alias names (case-sensitive symbols first, then folded words)."""
    unit = EXACT_ALIASES.get(alias_text)
    if unit is not None:
        return unit
    return FOLDED_ALIASES.get(" ".join(alias_text.split()).casefold())


# Inexact conversions (°F -> °C, psi -> kPa, km/h -> m/s) are stored to this many
# decimal places: far finer than any written precision, and identical for equal inputs.
_INEXACT_PLACES = Decimal("1e-9")


def to_base(value: Decimal, scale: Decimal, unit: Unit) -> tuple[Decimal, bool]:
    """``value`` times ``scale`` in ``unit``, in its category's base unit, and whether the
    conversion was exact: exact where decimal arithmetic allows, else rounded very finely."""
    product = CONTEXT.multiply(
        CONTEXT.add(CONTEXT.multiply(value, scale), unit.shift), unit.numerator
    )
    if unit.denominator == 1:
        return product, True
    # A fresh context: a copy of the shared one would inherit whatever flags earlier
    # conversions raised, and every later division would then look inexact.
    context = Context(prec=CONTEXT.prec)
    quotient = context.divide(product, unit.denominator)
    if not context.flags[Inexact]:
        return quotient, True
    return quotient.quantize(_INEXACT_PLACES, context=CONTEXT), False
